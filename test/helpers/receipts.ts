// Shop receipts made with pdf-lib for the built-in engine's receipt tests: a narrow till roll with
// the seller's name, registration number and address centred at the top, then labelled lines
// whose amounts stand at the right edge, as receipt printers set them. Each receipt states its
// own truth (seller, date as printed, address, total), so a test reads what the file says.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface ReceiptSpec {
  /** Centred lines at the top; the seller's name first unless `above` says otherwise. */
  header: string[];
  /** Centred lines printed above the seller (a brand, a branch, a person's name). */
  above?: string[];
  /** The seller's name in a larger bold type. */
  boldSeller?: boolean;
  /** Left-aligned lines under the header (invoice number, date, cashier). */
  meta: string[];
  /** Lines with a label at the left and an amount at the right edge. */
  body: [string, string][];
  /** Centred lines at the end. */
  footer?: string[];
  /** Points; 226 is an 80 mm till roll. */
  width?: number;
  font?: 'Courier' | 'Helvetica';
}

const SIZE = 8;
const MARGIN = 10;

/** A one-page receipt PDF drawn from `spec`. */
export async function receiptPdf(spec: ReceiptSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(spec.font === 'Helvetica' ? StandardFonts.Helvetica : StandardFonts.Courier);
  const bold = await doc.embedFont(spec.font === 'Helvetica' ? StandardFonts.HelveticaBold : StandardFonts.CourierBold);
  const width = spec.width ?? 226;
  const above = spec.above ?? [];
  const lines = above.length + spec.header.length + spec.meta.length + spec.body.length + (spec.footer?.length ?? 0) + 6;
  const height = MARGIN * 2 + lines * SIZE * 1.6 + 20;
  const page = doc.addPage([width, height]);
  let y = height - MARGIN - SIZE * 1.6;
  const next = (gap = 1.6) => (y -= SIZE * gap);
  const centred = (text: string, font: PDFFont, size: number) => draw(page, text, (width - font.widthOfTextAtSize(text, size)) / 2, y, font, size);
  for (const text of above) {
    centred(text, regular, SIZE);
    next();
  }
  spec.header.forEach((text, i) => {
    const seller = i === 0 && spec.boldSeller;
    centred(text, seller ? bold : regular, seller ? SIZE * 1.5 : SIZE);
    next(seller ? 2 : 1.6);
  });
  next();
  for (const text of spec.meta) {
    draw(page, text, MARGIN, y, regular, SIZE);
    next();
  }
  next();
  for (const [label, amount] of spec.body) {
    if (label) draw(page, label, MARGIN, y, regular, SIZE);
    if (amount) draw(page, amount, width - MARGIN - regular.widthOfTextAtSize(amount, SIZE), y, regular, SIZE);
    next();
  }
  next();
  for (const text of spec.footer ?? []) {
    centred(text, regular, SIZE);
    next();
  }
  return doc.save();
}

function draw(page: PDFPage, text: string, x: number, y: number, font: PDFFont, size: number): void {
  page.drawText(text, { x, y, font, size });
}

/**
 * A receipt whose amounts the layout reads as a table: the first row is an item with its tax
 * code, and the currency is printed after each total's label rather than before its amount.
 */
export const MINI_MART: ReceiptSpec = {
  header: ['99 MINI MART S/B (519537-X)', 'LOT 7, JALAN KENARI,', '47100 PUCHONG, SELANGOR'],
  meta: ['DATE: 01-11-17'],
  body: [
    ['MILO 1KG', '24.90 SR'],
    ['ROTI GARDENIA', '3.80 SR'],
    ['SUBTOTAL', '28.70'],
    ['TOTAL SALES (INCL GST) RM', '28.70'],
    ['CASH RM', '30.00'],
    ['CHANGE RM', '1.30'],
  ],
};

export interface ReceiptCase {
  name: string;
  spec: ReceiptSpec;
  /** What the receipt says, as the quality bench's truth would: the date as printed. */
  truth: { company: string; date: string; address: string; total: string };
}

/**
 * Receipts in different layouts, currencies, date formats and total labels: day-first numeric
 * dates (25/12/2018, 25-12-18), a month name (25 Dec 2018), ISO (2018-12-25); totals labelled
 * TOTAL, Total Due, Grand Total, Jumlah, Amount Due, with rounding, tax and payment lines
 * around them; the seller's registration number on its own line or beside the name, or a name
 * above the seller; addresses of two to four lines.
 */
export const RECEIPTS: ReceiptCase[] = [
  {
    name: 'Malaysian till roll: rounded total, cash and change after it',
    spec: {
      header: ['KEDAI RUNCIT SRI MAJU SDN BHD', '(123456-X)', 'NO 12, JALAN MAWAR 3,', 'TAMAN SERI INDAH,', '43000 KAJANG, SELANGOR.', 'TEL: 03-8736 1234', 'GST ID: 001234567890'],
      meta: ['TAX INVOICE', 'INVOICE NO: CS-00123', 'DATE: 25/12/2018 14:05', 'CASHIER: AMINAH'],
      body: [
        ['MILO 1KG', '24.90'],
        ['ROTI GARDENIA', '3.80'],
        ['SUB TOTAL', '28.70'],
        ['GST 6%', '1.72'],
        ['TOTAL', '30.42'],
        ['ROUNDING ADJ', '-0.02'],
        ['ROUNDED TOTAL (RM)', '30.40'],
        ['CASH', '50.00'],
        ['CHANGE', '19.60'],
      ],
      footer: ['THANK YOU. PLEASE COME AGAIN'],
    },
    truth: { company: 'KEDAI RUNCIT SRI MAJU SDN BHD', date: '25/12/2018', address: 'NO 12, JALAN MAWAR 3, TAMAN SERI INDAH, 43000 KAJANG, SELANGOR.', total: '30.40' },
  },
  {
    name: 'British café: month-name date, VAT line, Total Due, card payment',
    spec: {
      header: ['The Corner Bakery', '14 High Street', 'Oxford OX1 4AB', 'VAT Reg No: GB 123 4567 89'],
      meta: ['Receipt 00482', '25 Dec 2018 09:14', 'Served by: Tom'],
      body: [
        ['Flat white', '£3.20'],
        ['Almond croissant', '£2.95'],
        ['Subtotal', '£6.15'],
        ['VAT 20%', '£1.03'],
        ['Total Due', '£6.15'],
        ['Card', '£6.15'],
      ],
      footer: ['Thank you for visiting'],
    },
    truth: { company: 'The Corner Bakery', date: '25 Dec 2018', address: '14 High Street Oxford OX1 4AB', total: '6.15' },
  },
  {
    name: 'Grand Total with an ISO date, the registration number beside the name',
    spec: {
      header: ['SUNRISE MART PTE LTD (201912345K)', 'Blk 123 Ang Mo Kio Avenue 3, #01-45', 'Singapore 560123', 'Tel: 6456 7890'],
      meta: ['Date: 2018-12-25', 'Receipt No: 88123'],
      body: [
        ['Jasmine rice 5kg', 'S$12.50'],
        ['Eggs 10s', 'S$3.40'],
        ['Subtotal', 'S$15.90'],
        ['Discount', '-S$1.00'],
        ['GST 7%', 'S$1.04'],
        ['Grand Total', 'S$15.94'],
        ['NETS', 'S$15.94'],
      ],
    },
    truth: { company: 'SUNRISE MART PTE LTD', date: '2018-12-25', address: 'Blk 123 Ang Mo Kio Avenue 3, #01-45 Singapore 560123', total: '15.94' },
  },
  {
    name: 'Malay labels: Jumlah, Tunai, Baki, a two-digit year with dashes',
    spec: {
      header: ['RESTORAN NASI KANDAR PELITA', 'LOT 5, JALAN AMPANG,', '50450 KUALA LUMPUR'],
      meta: ['NO. BIL: 000231', 'TARIKH: 25-12-18 20:31'],
      body: [
        ['NASI KANDAR AYAM', '9.50'],
        ['TEH TARIK', '2.20'],
        ['JUMLAH', '11.70'],
        ['TUNAI', '20.00'],
        ['BAKI', '8.30'],
      ],
      footer: ['TERIMA KASIH'],
    },
    truth: { company: 'RESTORAN NASI KANDAR PELITA', date: '25-12-18', address: 'LOT 5, JALAN AMPANG, 50450 KUALA LUMPUR', total: '11.70' },
  },
  {
    name: 'A person above the seller, Amount Due before the payment lines, a summary after them',
    spec: {
      above: ['TAN AH KOW'],
      header: ['SYARIKAT PERNIAGAAN HUP SENG', '(654321-K)', 'NO 8, JALAN PASAR BESAR,', '30000 IPOH, PERAK.'],
      meta: ['DOC NO: TD0042', 'DATE: 03/01/2019'],
      body: [
        ['PAINT BRUSH 2"', '12.00'],
        ['SANDPAPER', '4.50'],
        ['TOTAL EXCL. GST', '16.50'],
        ['GST 6%', '0.99'],
        ['AMOUNT DUE', '17.49'],
        ['CASH', '20.00'],
        ['CHANGE', '2.51'],
        ['GST SUMMARY', ''],
        ['TOTAL', '16.50'],
      ],
    },
    truth: { company: 'SYARIKAT PERNIAGAAN HUP SENG', date: '03/01/2019', address: 'NO 8, JALAN PASAR BESAR, 30000 IPOH, PERAK.', total: '17.49' },
  },
  {
    name: 'The rounded amount paid printed under a label that is no total (cash less change says it)',
    spec: {
      header: ['SEGAR MINI MARKET', 'LOT P.T. 2811, JALAN ANGSA,', 'TAMAN BERKELEY', '41150 KLANG, SELANGOR'],
      meta: ['INVOICE NO : 18203/102/T0466', '01-11-17 09:06PM'],
      body: [
        ['SNEK KU TAM TAM CRAB', 'RM3.65'],
        ['MENTOS SOUR MIX', 'RM2.45'],
        ['TOTAL SALES (INCLUSIVE GST) RM', '52.08'],
        ['ROUNDING ADJUSTMENT RM', '.02'],
        ['ROUNDING RM', '52.10'],
        ['CASH RM', '60.00'],
        ['CHANGE RM', '7.90'],
      ],
    },
    truth: { company: 'SEGAR MINI MARKET', date: '01-11-17', address: 'LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY 41150 KLANG, SELANGOR', total: '52.10' },
  },
  {
    name: 'A total whose label says the tax is included after the tax word, paid in exact cash, a tax summary after',
    spec: {
      header: ['GUARDIAN HEALTH AND BEAUTY SDN BHD', 'NO 15 JALAN BANDAR RAWANG 10', 'BANDAR BARU RAWANG', '48000 RAWANG, SELANGOR', 'COMPANY REG #1101083-1'],
      meta: ['24/05/18 18:15'],
      body: [
        ['PRINGLES SOUR CREAM', '4.80'],
        ['SUBTOTAL', '4.80'],
        ['6% TRX DISC', '0.29-'],
        ['SUBTOTAL', '4.51'],
        ['ROUNDING ADJUSTMENTS', '0.01-'],
        ['TOTAL (GST INCL)', '4.50'],
        ['CASH', '4.50'],
        ['YOUR SAVINGS FOR TODAY', '0.29'],
        ['GST SUMMARY', ''],
        ['TOTAL', '4.25'],
      ],
    },
    truth: { company: 'GUARDIAN HEALTH AND BEAUTY SDN BHD', date: '24/05/18', address: 'NO 15 JALAN BANDAR RAWANG 10 BANDAR BARU RAWANG 48000 RAWANG, SELANGOR', total: '4.50' },
  },
  {
    name: 'An outlet name between the seller and its address, the address over three lines',
    spec: {
      header: ['MENTARI FOODS SDN BHD (1206674-T)', 'SUSHI MENTARI PLAZA DANAU', 'NO.37-1, PLAZA DANAU DESA 2,', 'JALAN 109F, TAMAN DANAU DESA,', '58100 KUALA LUMPUR.', '(GST REG. NO : 000435761152)'],
      meta: ['TAX INVOICE', 'BILL#: V031-551345', 'DATE: 21-04-2018 19:50'],
      body: [
        ['SALMON SUSHI', '12.90'],
        ['TOTAL (INCLUSIVE OF GST):', '41.50'],
        ['CASH:', '50.00'],
        ['CHANGE:', '8.50'],
      ],
    },
    truth: { company: 'MENTARI FOODS SDN BHD', date: '21-04-2018', address: 'NO.37-1, PLAZA DANAU DESA 2, JALAN 109F, TAMAN DANAU DESA, 58100 KUALA LUMPUR.', total: '41.50' },
  },
  {
    name: 'A shop named at the top, the company owning it named after the address',
    spec: {
      header: ['SEGI STATIONERY SHOP', 'NO. 31G&33G, JALAN SETIA INDAH X,', '40170 SETIA ALAM', 'TEL: +603-3362 4137', 'OWNED BY :', 'SEGI SUPPLY SDN BHD (1135772-K)'],
      meta: ['CASH SALES COUNTER', 'INV NO: CS-SA-0079030', 'DATE: 18/04/2017'],
      body: [
        ['ORDER CHIT NCR 3 X 2.90', '8.70'],
        ['TOTAL', '8.70'],
        ['CASH', '10.00'],
        ['CHANGE', '1.30'],
      ],
    },
    truth: { company: 'SEGI STATIONERY SHOP', date: '18/04/2017', address: 'NO. 31G&33G, JALAN SETIA INDAH X, 40170 SETIA ALAM', total: '8.70' },
  },
  {
    name: 'A postcode ending its line, the town and the state under it; a lot number before',
    spec: {
      header: ['RESTORAN SRI MELATI', 'LOT 34817 JALAN SETIA PRIMA Q', 'U 13/Q SETIA ALAM 40170', 'SHAH ALAM', 'SELANGOR', 'STESEN SERVIS MAJU'],
      meta: ['TAX INVOICE', 'DATE: 12/28/2017 10:17:32 PM'],
      body: [
        ['NASI LEMAK', '15.00'],
        ['TOTAL', '15.00'],
        ['CASH', '15.00'],
      ],
    },
    truth: { company: 'RESTORAN SRI MELATI', date: '12/28/2017', address: 'LOT 34817 JALAN SETIA PRIMA Q U 13/Q SETIA ALAM 40170 SHAH ALAM SELANGOR', total: '15.00' },
  },
  {
    name: 'A heading above the seller, a postcode with its town, the state, then a station name',
    spec: {
      header: ['TAX INVOICE', 'PETROMAS KUCHAI LAMA', 'JALAN KUCHAI LAMA', '58200 KUALA LUMPUR', 'WILAYAH PERSEKUTUAN', 'STESEN MAJU JAYA', 'CO. REG. NO: 000948487-V'],
      meta: ['18-01-2018 15:44:46 INVOICE NO: 1-916166'],
      body: [
        ['RON95 20.11 L', '41.95'],
        ['TOTAL AMOUNT PAYABLE', '41.95'],
        ['MASTER CARD', '41.95'],
      ],
    },
    truth: { company: 'PETROMAS KUCHAI LAMA', date: '18-01-2018', address: 'JALAN KUCHAI LAMA 58200 KUALA LUMPUR WILAYAH PERSEKUTUAN', total: '41.95' },
  },
  {
    name: 'A heading right under the postcode line, a floor for the address to begin with',
    spec: {
      header: ['KEDAI BUKU ILMU', '(002345678-P)', '2ND FLR, WISMA PERDANA,', 'NO 3, JALAN PERDANA,', '81200 JOHOR BAHRU', 'CASH BILL'],
      meta: ['NO: CB-1182', 'DATE: 10 JUN 2018 18:23'],
      body: [
        ['KAMUS DEWAN', '89.90'],
        ['TOTAL', '89.90'],
        ['CASH', '100.00'],
        ['CHANGE', '10.10'],
      ],
    },
    truth: { company: 'KEDAI BUKU ILMU', date: '10 JUN 2018', address: '2ND FLR, WISMA PERDANA, NO 3, JALAN PERDANA, 81200 JOHOR BAHRU', total: '89.90' },
  },
  {
    name: 'A company number labelled "Company No", a site number before the address',
    spec: {
      header: ['SUN WAH FUEL SDN BHD', 'COMPANY NO: 20965-W', 'SITE: 1046', '176 JLN SUNGEI BESI,', '57100 KUALA LUMPUR.', 'TELEPHONE: 03-9221345'],
      meta: ['INVOICE NUMBER 60000483942', 'DATE 21/02/18 TIME 11:19'],
      body: [
        ['FUEL SAVE 95 39.54 LITRE', 'RM 88.17'],
        ['TOTAL', 'RM 88.17'],
        ['VISA', 'RM 88.17'],
        ['RELIEF GST', 'RM 0.00'],
        ['TOTAL GROSS', 'RM 88.17'],
      ],
    },
    truth: { company: 'SUN WAH FUEL SDN BHD', date: '21/02/18', address: '176 JLN SUNGEI BESI, 57100 KUALA LUMPUR.', total: '88.17' },
  },
  {
    name: "An address opening with a building's name",
    spec: {
      header: ['KEDAI ELEKTRIK CAHAYA', 'WISMA CAHAYA, JALAN TUN RAZAK,', '50400 KUALA LUMPUR', 'TEL: 03-2161 0000'],
      meta: ['RESIT: 7781', 'TARIKH: 2019-03-02'],
      body: [
        ['LAMPU LED 9W X2', '17.80'],
        ['JUMLAH', '17.80'],
        ['TUNAI', '20.00'],
        ['BAKI', '2.20'],
      ],
    },
    truth: { company: 'KEDAI ELEKTRIK CAHAYA', date: '2019-03-02', address: 'WISMA CAHAYA, JALAN TUN RAZAK, 50400 KUALA LUMPUR', total: '17.80' },
  },
  {
    name: 'A rounded total paid by card, a tax summary with its own total after the payment',
    spec: {
      header: ['Harbour Hardware Ltd', 'Unit 4, Quay Street', 'Galway H91 E2K3', 'VAT No: IE 6388047V'],
      meta: ['Date: 2018-12-25'],
      body: [
        ['Hinges x4', '€9.80'],
        ['Wood screws', '€5.23'],
        ['Total', '€15.03'],
        ['Rounding', '-€0.03'],
        ['Total to pay', '€15.00'],
        ['Visa', '€15.00'],
        ['VAT summary', ''],
        ['Net 23%', '€12.20'],
        ['Total', '€12.20'],
      ],
    },
    truth: { company: 'Harbour Hardware Ltd', date: '2018-12-25', address: 'Unit 4, Quay Street Galway H91 E2K3', total: '15.00' },
  },
];
