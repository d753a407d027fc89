// Test documents made on the fly with pdf-lib, so each test states exactly what is in its file.
import { clip, degrees, endPath, PDFDocument, popGraphicsState, pushGraphicsState, rectangle, rgb, setCharacterSpacing, setWordSpacing, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

export async function textPdf(pages: string[][], options: { fontSize?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const size = options.fontSize ?? 11;
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * size * 1.5, size, font }));
  }
  return doc.save();
}

/**
 * A one-page invoice whose payment terms count from the invoice date instead of printing a due
 * date; its block of labelled lines and the terms sentence are read as one paragraph, so the
 * invoice date and "Payment is due" stand in the same passage.
 */
export function invoicePdf(): Promise<Uint8Array> {
  return textPdf([
    [
      'Acme Supplies Ltd',
      '12 Harbour Road, Bristol BS1 4QA',
      '',
      'INVOICE',
      'Invoice number: INV-2024-0173',
      'Billed to: Northwind Traders',
      'Invoice date: March 14, 2024',
      'Payment is due within 30 days of the invoice date.',
      '',
      'Consulting services 12 hours $1,200.00',
      'Total due: $1,440.00',
      '',
      'Please pay by bank transfer to account 12345678.',
    ],
  ]);
}

/** `count` pages of running text, each with its page number in the first line. */
export async function longPdf(count: number, wordsPerPage = 120): Promise<Uint8Array> {
  const words = 'the quick brown fox jumps over a lazy dog while seven wizards quietly box'.split(' ');
  const pages: string[][] = [];
  for (let p = 1; p <= count; p++) {
    const lines = [`Page marker ${p}`];
    let line: string[] = [];
    for (let w = 0; w < wordsPerPage; w++) {
      line.push(words[(w + p) % words.length]);
      if (line.length === 12) {
        lines.push(line.join(' '));
        line = [];
      }
    }
    if (line.length) lines.push(line.join(' '));
    pages.push(lines);
  }
  return textPdf(pages);
}

/** A page with a heading, some text and a large embedded picture (a figure). */
export async function pdfWithFigure(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Quarterly report', { x: 72, y: 720, size: 20, font });
  const body = 'Revenue grew in every region this quarter and the chart below shows the monthly figures in detail for the board';
  page.drawText(body.slice(0, 60), { x: 72, y: 690, size: 11, font });
  page.drawText(body.slice(60), { x: 72, y: 674, size: 11, font });
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .composite([{ input: Buffer.from('<svg width="300" height="200"><rect x="40" y="40" width="80" height="120" fill="#2050c0"/></svg>'), top: 0, left: 0 }])
    .png()
    .toBuffer();
  const image = await doc.embedPng(png);
  page.drawImage(image, { x: 72, y: 380, width: 300, height: 200 });
  page.drawText('Figure 1: Monthly revenue by region', { x: 72, y: 362, size: 10, font });
  return doc.save();
}

/** A fillable form: labelled text field, checkboxes, a radio group, a dropdown, an unlabelled field. */
export async function formPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  page.drawText('Application', { x: 72, y: 730, size: 18, font });
  page.drawText('Full name:', { x: 72, y: 684, size: 11, font });
  const name = form.createTextField('applicant.name');
  name.setText('Ada Lovelace');
  name.addToPage(page, { x: 150, y: 678, width: 200, height: 20 });
  const agree = form.createCheckBox('terms');
  agree.addToPage(page, { x: 72, y: 640, width: 12, height: 12 });
  agree.check();
  page.drawText('I agree to the terms', { x: 90, y: 642, size: 11, font });
  const news = form.createCheckBox('newsletter');
  news.addToPage(page, { x: 72, y: 616, width: 12, height: 12 });
  page.drawText('Send me the newsletter', { x: 90, y: 618, size: 11, font });
  page.drawText('Country', { x: 72, y: 590, size: 11, font });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Germany', 'Spain']);
  country.select('Germany');
  country.addToPage(page, { x: 72, y: 560, width: 150, height: 20 });
  const hidden = form.createTextField('internal_ref');
  hidden.setText('REF-42');
  hidden.addToPage(page, { x: 400, y: 400, width: 100, height: 20 });
  return doc.save();
}

export interface TableSpec {
  header: string[];
  rows: string[][];
  /** Draw cell borders; without them the table is found from the alignment of its text. */
  ruled: boolean;
}

/**
 * Pages with a table each, columns 120 points wide from x = 72, rows 20 points high from y = 700,
 * the header row in Helvetica-Bold; `before` opens the first page and `after` closes the last.
 */
export async function tablePdf(pages: TableSpec[], options: { before?: string; after?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const [n, spec] of pages.entries()) {
    const page = doc.addPage([612, 792]);
    if (options.before && n === 0) page.drawText(options.before, { x: 72, y: 720, size: 11, font });
    const rows = [spec.header, ...spec.rows];
    const columns = spec.header.length;
    const top = 700;
    rows.forEach((cells, r) => {
      cells.forEach((text, c) => page.drawText(text, { x: 72 + c * 120 + 4, y: top - r * 20 - 14, size: 10, font: r === 0 ? bold : font }));
    });
    if (spec.ruled) {
      for (let r = 0; r <= rows.length; r++) page.drawLine({ start: { x: 72, y: top - r * 20 }, end: { x: 72 + columns * 120, y: top - r * 20 }, thickness: 0.75 });
      for (let c = 0; c <= columns; c++) page.drawLine({ start: { x: 72 + c * 120, y: top }, end: { x: 72 + c * 120, y: top - rows.length * 20 }, thickness: 0.75 });
    }
    if (options.after && n === pages.length - 1) page.drawText(options.after, { x: 72, y: top - rows.length * 20 - 30, size: 11, font });
  }
  return doc.save();
}

/** A page of text with a chart drawn from vector paths (axes with ticks, a curve, labels) between paragraphs. */
export async function vectorChartPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Growth of the network over ten years, as the chart below shows in detail.', { x: 72, y: 720, size: 11, font });
  // Axes with tick marks, a curve and a filled marker, 300 x 200 points from (100, 400).
  page.drawLine({ start: { x: 100, y: 400 }, end: { x: 400, y: 400 }, thickness: 1 });
  page.drawLine({ start: { x: 100, y: 400 }, end: { x: 100, y: 600 }, thickness: 1 });
  for (let i = 1; i <= 5; i++) {
    page.drawLine({ start: { x: 100 + i * 60, y: 400 }, end: { x: 100 + i * 60, y: 396 }, thickness: 1 });
    page.drawText(String(i * 2), { x: 96 + i * 60, y: 386, size: 8, font });
  }
  page.drawSvgPath('M 0 0 C 80 -20 160 -120 300 -190', { x: 100, y: 400, borderWidth: 2 });
  page.drawSvgPath('M 0 0 C 60 -60 200 -80 300 -100', { x: 100, y: 400, borderWidth: 1 });
  page.drawEllipse({ x: 250, y: 480, xScale: 5, yScale: 5 });
  page.drawText('years', { x: 380, y: 374, size: 8, font });
  page.drawText('Figure 2: Nodes per year', { x: 72, y: 350, size: 10, font });
  page.drawText('The network kept growing after the last year shown.', { x: 72, y: 320, size: 11, font });
  return doc.save();
}

/**
 * A plot whose curve is a stroked polyline of 240 pieces under a point each (as GeoTopo's sin(1/x),
 * page 23), with three tick labels under it, between two lines of text.
 */
export async function sampledCurvePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('The curve below comes ever closer to the axis without reaching it.', { x: 72, y: 720, size: 11, font });
  const points = Array.from({ length: 240 }, (_, i) => `L ${(i + 1) * 0.8} ${(-40 * Math.sin(i / 6)).toFixed(2)}`);
  page.drawSvgPath(`M 0 0 ${points.join(' ')}`, { x: 150, y: 560, borderWidth: 0.5 });
  for (const [i, label] of ['0', '1', '2'].entries()) page.drawText(label, { x: 148 + i * 96, y: 505, size: 8, font });
  page.drawText('Rising and falling ever more often, the curve never settles.', { x: 72, y: 460, size: 11, font });
  return doc.save();
}

/** A portrait page whose text runs bottom to top, as a landscape table printed sideways. */
export async function sidewaysPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  lines.forEach((line, i) => page.drawText(line, { x: 100 + i * 18, y: 100, size: 12, font, rotate: degrees(90) }));
  return doc.save();
}

/**
 * Lines of 12-point text, each set with its own character spacing (the Tc operator) and word
 * spacing (Tw), in points, one text object per line.
 */
export async function spacedTextPdf(lines: { text: string; charSpacing: number; wordSpacing?: number }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  lines.forEach(({ text, charSpacing, wordSpacing }, i) => {
    page.pushOperators(pushGraphicsState(), setCharacterSpacing(charSpacing), setWordSpacing(wordSpacing ?? 0));
    page.drawText(text, { x: 72, y: 700 - i * 30, size: 12, font });
    page.pushOperators(popGraphicsState());
  });
  return doc.save();
}

/**
 * An upright page with a paragraph, a label reading upwards (a vertical axis label, turned 90
 * degrees counter-clockwise) and one reading downwards (turned 90 degrees clockwise).
 */
export async function turnedLabelsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('The load rises slowly at first and then faster once the nut seats.', { x: 72, y: 720, size: 11, font });
  page.drawText('The curve flattens again when the bolt starts to stretch.', { x: 72, y: 700, size: 11, font });
  page.drawText('Axial load (kN)', { x: 135, y: 500, size: 9, font, rotate: degrees(90) });
  page.drawText('Text going down the page', { x: 520, y: 500, size: 10, font, rotate: degrees(-90) });
  return doc.save();
}

/**
 * A handbook page: section headings in a sans face over body text in Times (the first heading
 * neither bold nor more than a fifth larger than the body, the second bold), two photos side by side with labels on one and under
 * both, their caption, a diagram of two framed boxes joined by an arrow with its caption, and a
 * third photo cropped by its frame (placed 400 points square, shown 150 x 100).
 */
export async function handbookPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const body = await doc.embedFont(StandardFonts.TimesRoman);
  const sans = await doc.embedFont(StandardFonts.Helvetica);
  const sansBold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  const paragraph = (lines: string[], y: number) => lines.forEach((line, i) => page.drawText(line, { x: 72, y: y - i * 12, size: 10, font: body }));
  page.drawText('Torque', { x: 72, y: 730, size: 12, font: sans });
  paragraph(
    [
      'When a nut is tightened on a bolt, the bolt stretches a little and the joint is held',
      'together by the tension in the bolt. Too little torque lets the joint work loose; too',
      'much stretches the bolt past its limit and it may fail in service.',
    ],
    716,
  );
  page.drawText('Measuring Torque', { x: 72, y: 670, size: 12, font: sansBold });
  paragraph(['A torque wrench measures the turning force applied to the nut. Read the scale while', 'the force is applied steadily, never with a jerk.'], 654);
  const png = await sharp({ create: { width: 200, height: 120, channels: 3, background: { r: 150, g: 160, b: 170 } } }).png().toBuffer();
  const photo = await doc.embedPng(png);
  page.drawImage(photo, { x: 72, y: 470, width: 200, height: 120 });
  page.drawImage(photo, { x: 330, y: 470, width: 200, height: 120 });
  page.drawText('Washer', { x: 90, y: 550, size: 8, font: sans });
  page.drawText('Gap', { x: 200, y: 500, size: 8, font: sans });
  page.drawText('Untightened nut', { x: 130, y: 456, size: 12, font: sansBold });
  page.drawText('Tightened nut', { x: 395, y: 456, size: 12, font: sansBold });
  page.drawText('Figure 7-12. Nut before and after tightening.', { x: 72, y: 436, size: 9, font: body });
  page.drawRectangle({ x: 100, y: 330, width: 80, height: 40, borderWidth: 1, borderColor: rgb(0, 0, 0) });
  page.drawRectangle({ x: 300, y: 330, width: 80, height: 40, borderWidth: 1, borderColor: rgb(0, 0, 0) });
  page.drawLine({ start: { x: 180, y: 350 }, end: { x: 292, y: 350 }, thickness: 1 });
  page.drawSvgPath('M 0 0 L -8 -4 L -8 4 Z', { x: 300, y: 350, color: rgb(0, 0, 0) });
  page.drawText('Wrench', { x: 120, y: 346, size: 9, font: sans });
  page.drawText('Bolt', { x: 328, y: 346, size: 9, font: sans });
  page.drawText('Figure 7-13. How the wrench turns the bolt.', { x: 72, y: 305, size: 9, font: body });
  page.pushOperators(pushGraphicsState(), rectangle(380, 120, 150, 100), clip(), endPath());
  page.drawImage(photo, { x: 250, y: 0, width: 400, height: 400 });
  page.pushOperators(popGraphicsState());
  paragraph(['Keep the wrench at right angles to the bolt so that the scale reads true.'], 270);
  return doc.save();
}
