// Form fields of a PDF page (its widget annotations): name, tooltip, kind, value or state, and
// where each sits in the page model's frame, for the key/values read from forms.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { FormField } from '../page-model.js';
import { apply, roundBox, type Scratch, type Transform } from './pdfium.js';

const ANNOT_WIDGET = 20;
const FIELD_KINDS: Record<number, FormField['kind'] | undefined> = {
  2: 'checkbox',
  3: 'radio',
  4: 'choice',
  5: 'choice',
  6: 'text',
  7: 'signature',
};

/** Reads a UTF-16LE string through PDFium's two-call pattern (ask the size, then fill). */
function readUtf16(lib: WrappedPdfiumModule, read: (buffer: number, length: number) => number): string {
  const length = read(0, 0);
  if (length <= 2) return '';
  const buffer = lib.pdfium.wasmExports.malloc(length);
  try {
    read(buffer, length);
    return lib.pdfium.UTF16ToString(buffer);
  } finally {
    lib.pdfium.wasmExports.free(buffer);
  }
}

/** The page's form widgets: name, tooltip, kind, value or state, and where they sit. */
export function readFormFields(lib: WrappedPdfiumModule, form: number, page: number, t: Transform, scratch: Scratch): FormField[] {
  const count = lib.FPDFPage_GetAnnotCount(page);
  if (count === 0) return [];
  // Checkbox and radio states are only known once the form has seen the page.
  lib.FORM_OnAfterLoadPage(page, form);
  try {
    return readWidgets(lib, form, page, count, t, scratch);
  } finally {
    lib.FORM_OnBeforeClosePage(page, form);
  }
}

function readWidgets(lib: WrappedPdfiumModule, form: number, page: number, count: number, t: Transform, scratch: Scratch): FormField[] {
  const fields: FormField[] = [];
  for (let i = 0; i < count; i++) {
    const annot = lib.FPDFPage_GetAnnot(page, i);
    if (!annot) continue;
    try {
      if (lib.FPDFAnnot_GetSubtype(annot) !== ANNOT_WIDGET) continue;
      const kind = FIELD_KINDS[lib.FPDFAnnot_GetFormFieldType(form, annot)];
      if (!kind || !lib.FPDFAnnot_GetRect(annot, scratch.ptr)) continue;
      const [xa, ya] = apply(t, scratch.f32(0), scratch.f32(1));
      const [xb, yb] = apply(t, scratch.f32(2), scratch.f32(3));
      const name = readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldName(form, annot, b, l));
      const alternateName = readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldAlternateName(form, annot, b, l));
      const toggles = kind === 'checkbox' || kind === 'radio';
      const value = toggles
        ? readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldExportValue(form, annot, b, l))
        : readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldValue(form, annot, b, l));
      fields.push({
        name,
        alternateName: alternateName || null,
        kind,
        value,
        selected: toggles ? lib.FPDFAnnot_IsChecked(form, annot) : null,
        box: roundBox({ x0: Math.min(xa, xb), y0: Math.min(ya, yb), x1: Math.max(xa, xb), y1: Math.max(ya, yb) }),
      });
    } finally {
      lib.FPDFPage_CloseAnnot(annot);
    }
  }
  return fields;
}
