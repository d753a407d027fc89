import { describe, expect, it } from 'vitest';
import { filenameFromUrl, isPublicAddress } from '../../src/pipeline/intake/fetch-url.js';
import { cleanFilename } from '../../src/domain/filenames.js';

describe('isPublicAddress (docs/decisions.md#url-uploads: no loopback, private, link-local or metadata addresses)', () => {
  const notPublic = [
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.1.2',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    // IPv4-compatible (::/96, deprecated) and translation prefixes that carry an IPv4 address.
    '::7f00:1',
    '::127.0.0.1',
    '::a00:1',
    '::8.8.8.8',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ];
  for (const address of notPublic) {
    it(`docs/decisions.md#url-uploads: ${address} is not public`, () => {
      expect(isPublicAddress(address)).toBe(false);
    });
  }

  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8']) {
    it(`docs/decisions.md#url-uploads: ${address} is public`, () => {
      expect(isPublicAddress(address)).toBe(true);
    });
  }
});

describe('cleanFilename (docs/decisions.md: a filename cannot pass for another)', () => {
  it('drops bidirectional controls, so a right-to-left override cannot disguise an extension', () => {
    expect(cleanFilename('invoice\u202efdp.exe', 'upload')).toBe('invoicefdp.exe');
    expect(cleanFilename('\u2067report\u2069\u200f.pdf\u061c', 'upload')).toBe('report.pdf');
    expect(cleanFilename('a\u0085b\u009b.pdf', 'upload')).toBe('ab.pdf');
  });

  it('keeps right-to-left letters themselves', () => {
    expect(cleanFilename('\u05d3\u05d5\u05d7.pdf', 'upload')).toBe('\u05d3\u05d5\u05d7.pdf');
    expect(cleanFilename('\u062a\u0642\u0631\u064a\u0631.pdf', 'upload')).toBe('\u062a\u0642\u0631\u064a\u0631.pdf');
  });

  it('falls back when nothing is left', () => {
    expect(cleanFilename('\u202e\u202d', 'upload')).toBe('upload');
  });
});

describe('filenameFromUrl (Document filename of a URL upload)', () => {
  it('is the last part of the path', () => {
    expect(filenameFromUrl('https://example.com/papers/2024/report.pdf')).toBe('report.pdf');
  });

  it('ignores a trailing slash, the query and the fragment', () => {
    expect(filenameFromUrl('https://example.com/papers/report.pdf/')).toBe('report.pdf');
    expect(filenameFromUrl('https://example.com/a/report.pdf?download=1#page=2')).toBe('report.pdf');
  });

  it('is percent-decoded', () => {
    expect(filenameFromUrl('https://example.com/files/Annual%20Report%202024.pdf')).toBe('Annual Report 2024.pdf');
    expect(filenameFromUrl('https://example.com/%C3%BCbersicht.pdf')).toBe('übersicht.pdf');
  });

  it('keeps a malformed escape as it is', () => {
    expect(filenameFromUrl('https://example.com/100%25-bad%zz.pdf')).toBe('100%25-bad%zz.pdf');
  });

  it('is the host when the path is empty', () => {
    expect(filenameFromUrl('https://example.com')).toBe('example.com');
    expect(filenameFromUrl('https://example.com/')).toBe('example.com');
    expect(filenameFromUrl('http://docs.example.org:8080/?q=1')).toBe('docs.example.org');
  });
});
