import { StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { drawable } from '../../bench/generated/pdflib-text.js';

describe('the pdf-lib producer', () => {
  it('writes out a sign the Courier that rasterizes its scans has no glyph for, in the drawing and the truth alike', () => {
    // TeX Live's Courier, which poppler finds for a scan's picture, draws nothing for the euro sign.
    expect(drawable('€27,286.36', StandardFonts.Courier)).toBe('EUR27,286.36');
    expect(drawable('Final equity (€)', StandardFonts.CourierBold)).toBe('Final equity (EUR)');
    // Other faces draw it, and other signs are in Courier too.
    expect(drawable('€27,286.36', StandardFonts.Helvetica)).toBe('€27,286.36');
    expect(drawable('£3 ¥4', StandardFonts.Courier)).toBe('£3 ¥4');
    expect(drawable('€5')).toBe('€5');
  });
});
