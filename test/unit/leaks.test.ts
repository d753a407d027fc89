// The detector every HTTP test runs over error messages (test/helpers/leaks.ts) must itself tell
// an engine's words from Folio's, or the guarantee it stands for is empty.
import { describe, expect, it } from 'vitest';
import { errorMessagesIn, internalLeak } from '../helpers/leaks.js';

describe('internal leaks in messages', () => {
  it("flags what issue 22 found clients reading, and what engines say", () => {
    for (const message of [
      'The document could not be read: Maximum call stack size exceeded',
      "'/api/v1/documents/doc_aaa' is exceeding the max param length (FST_ERR_MAX_PARAM_LENGTH)",
      'TypeError: Cannot read properties of undefined',
      'The URL could not be fetched: getaddrinfo ENOTFOUND example.invalid',
      'the picture could not be read (Input file is missing: /tmp/folio/blobs/uploads/doc_1)',
      '    at readWords (file:///work/main/dist/pipeline/formats/pdf.js:120:14)',
    ]) {
      expect(internalLeak(message), message).not.toBeNull();
    }
  });

  it("lets Folio's own words through, its API paths included", () => {
    for (const message of [
      'There is no PUT endpoint at that path; /api/v1/openapi.json lists them all.',
      'The document could not be read: the PDF is damaged.',
      'Invalid request. options.extraction.schema: is nested more than 32 levels deep.',
      '"scan.png" is a image/webp file. Supported types: application/pdf, image/png.',
      'Page 3 could not be read by OCR.',
    ]) {
      expect(internalLeak(message), message).toBeNull();
    }
  });

  it('finds every error message in an answer', () => {
    expect(errorMessagesIn({ error: { type: 'x', message: 'a' } })).toEqual(['a']);
    expect(errorMessagesIn({ documents: [{ id: 'doc_1' }, { error: { type: 'x', message: 'b' } }] })).toEqual(['b']);
    expect(errorMessagesIn({ status: 'failed', error: { type: 'x', message: 'c', stage: 'analyzing' } })).toEqual(['c']);
  });
});
