// What the generated documents say: words, sentences, names, numbers and amounts, drawn from the
// document's own stream. The text means nothing, but it is shaped like documents' text: common
// words most often, capitalised sentences, names, figures with units, amounts in currencies, dates;
// and, on some pages, accented Latin, Greek, Cyrillic, Arabic or Hebrew.
import type { Random } from './random.js';

const COMMON = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will more other its what can who into some time could them these than two may first then do any like my now over such our man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long here get both between life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');

const NOUNS = 'account report analysis budget cost revenue margin sample survey method result model figure table section chapter method policy contract invoice payment supplier customer region market quarter product service system network process project design review study patient treatment dose trial protocol station sensor reading value measure rate index period total balance asset liability equity interest loan deposit transfer order shipment warehouse inventory unit item price discount tax fee charge schedule meeting committee board member council agency department office program grant fund campaign plan target goal outcome impact risk issue change growth decline trend pattern signal error variance estimate forecast baseline threshold parameter coefficient matrix vector layer node edge graph tree query record field column row entry'.split(' ');

const ADJECTIVES = 'annual quarterly total net gross average median current previous final initial main general public private local regional national global internal external direct indirect fixed variable standard special major minor key early late high low new old small large full partial short long open closed active passive positive negative primary secondary technical financial operational strategic clinical statistical significant relative absolute'.split(' ');

const VERBS = 'shows reports describes includes requires provides reduces increases compares measures indicates follows supports covers explains defines lists records reflects estimates assumes applies'.split(' ');

const FIRST_NAMES = 'Anna Ben Clara David Elena Felix Grace Hugo Irene Jonas Karin Lukas Maria Nils Olga Paul Rosa Simon Tara Viktor'.split(' ');
const LAST_NAMES = 'Andersen Becker Costa Dubois Eriksen Fischer Garcia Hansen Ivanova Jensen Keller Larsen Moreau Novak Olsen Petrov Rossi Schmidt Torres Weber'.split(' ');
const PLACES = 'Aarhus Bergen Cork Dresden Eindhoven Florence Graz Hamburg Innsbruck Krakow Lyon Malmo Nantes Oslo Porto Riga Seville Tampere Utrecht Vienna'.split(' ');

/** Accented Latin: composed as written, some also with combining accents (accent drawn apart). */
export const ACCENTED = 'été déjà élève garçon français résumé naïve très cœur où Straße Größe Übersicht Mädchen schön Bücher Prüfung Ján Mináč čeština žluťoučký příliš kůň úpěl ďábelské niño años información corazón łódź zażółć gęślą jaźń Ångström Øresund Æsir façade crème brûlée'.split(' ');

export type Script = 'latin' | 'accented' | 'greek' | 'cyrillic' | 'arabic' | 'hebrew';

const SCRIPT_WORDS: Record<Exclude<Script, 'latin' | 'accented'>, string[]> = {
  greek: 'η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο βιβλίο σπίτι νερό ήλιος θάλασσα πόλη ημέρα χρόνος εργασία εταιρεία λογαριασμός σύνολο ημερομηνία έκθεση αγορά χρήματα παιδί φως'.split(' '),
  cyrillic: 'съешь же ещё этих мягких французских булок да выпей чаю книга дом вода солнце море город день год работа компания счёт итог дата отчёт рынок деньги ребёнок свет земля хлеб'.split(' '),
  arabic: 'كتاب مدرسة جامعة طالب مدينة شمس قمر بيت ماء عمل يوم سنة تقرير مال سوق شركة حساب فاتورة مجموع تاريخ في من على إلى هذا'.split(' '),
  hebrew: 'ספר בית עולם שלום מים יום שנה עבודה עיר חברה חשבון סכום תאריך דוח שוק כסף ילד אור ארץ לחם של את על זה'.split(' '),
};

/** Writing direction of a script. */
export function isRightToLeft(script: Script): boolean {
  return script === 'arabic' || script === 'hebrew';
}

export class Words {
  constructor(
    private readonly random: Random,
    readonly script: Script = 'latin',
  ) {}

  word(): string {
    const r = this.random;
    if (this.script !== 'latin' && this.script !== 'accented') return r.pick(SCRIPT_WORDS[this.script]);
    if (this.script === 'accented' && r.chance(0.25)) return r.pick(ACCENTED);
    return r.pick(
      r.weighted([
        [COMMON, 5],
        [NOUNS, 3],
        [ADJECTIVES, 1.5],
        [VERBS, 0.7],
      ] as const),
    );
  }

  noun(): string {
    return this.script === 'latin' || this.script === 'accented' ? this.random.pick(NOUNS) : this.word();
  }

  adjective(): string {
    return this.script === 'latin' || this.script === 'accented' ? this.random.pick(ADJECTIVES) : this.word();
  }

  /** `count` words, space-separated. */
  words(count: number): string {
    return Array.from({ length: count }, () => this.word()).join(' ');
  }

  /** A sentence: capitalised (where the script has capitals), sometimes with a figure, ending in a full stop. */
  sentence(min = 6, max = 18): string {
    const r = this.random;
    const parts: string[] = [];
    const length = r.int(min, max);
    for (let i = 0; i < length; i++) {
      if (i > 2 && r.chance(0.06)) parts.push(this.figure());
      else if (i > 1 && r.chance(0.03)) parts.push(this.name());
      else parts.push(this.word());
    }
    let text = parts.join(' ');
    if (r.chance(0.15) && length > 8) {
      const cut = text.indexOf(' ', Math.floor(text.length / 2));
      if (cut > 0) text = `${text.slice(0, cut)},${text.slice(cut)}`;
    }
    return `${capitalise(text)}.`;
  }

  paragraph(sentences = this.random.int(2, 6)): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(' ');
  }

  /** A heading's words: a few nouns and adjectives, capitalised. */
  headingText(): string {
    const r = this.random;
    const words = [this.adjective(), this.noun(), ...(r.chance(0.5) ? [r.pick(['and', 'of', 'for', 'in']), this.noun()] : [])];
    return capitalise(words.join(' '));
  }

  name(): string {
    return `${this.random.pick(FIRST_NAMES)} ${this.random.pick(LAST_NAMES)}`;
  }

  place(): string {
    return this.random.pick(PLACES);
  }

  /** A figure as text shows it: a count, a percentage, a measure with its unit, a year. */
  figure(): string {
    const r = this.random;
    return r.weighted([
      [() => String(r.int(2, 999)), 3],
      [() => `${(r.int(1, 999) / 10).toFixed(1)}%`, 2],
      [() => `${r.int(1, 500)} ${r.pick(['kg', 'km', 'mm', 'ms', 'MB', 'kWh', 'mg'])}`, 2],
      [() => String(r.int(1990, 2030)), 1],
    ] as const)();
  }

  /** An amount as tables print it: `1,234.50`, negatives in parentheses or with a minus, with or without its currency. */
  amount(options: { currency?: string | null; negative?: 'minus' | 'parentheses' | null } = {}): string {
    const r = this.random;
    const value = r.int(0, 1) ? r.int(1, 99_999) + r.int(0, 99) / 100 : r.int(1, 999);
    const digits = value.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(value) ? 0 : 2, maximumFractionDigits: 2 });
    const withCurrency = options.currency ? (r.chance(0.5) ? `${options.currency}${digits}` : `${options.currency} ${digits}`) : digits;
    if (options.negative === 'parentheses') return `(${withCurrency})`;
    if (options.negative === 'minus') return `-${withCurrency}`;
    return withCurrency;
  }

  date(): string {
    const r = this.random;
    const day = r.int(1, 28);
    const month = r.int(1, 12);
    const year = r.int(2015, 2029);
    const months = 'January February March April May June July August September October November December'.split(' ');
    return r.weighted([
      [() => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, 2],
      [() => `${day} ${months[month - 1]} ${year}`, 2],
      [() => `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`, 1],
    ] as const)();
  }

  /** A short identifier: `INV-2031-0457`, `arXiv:2411.01234v2`. */
  identifier(prefix = 'REF'): string {
    return `${prefix}-${this.random.int(1000, 9999)}-${String(this.random.int(0, 9999)).padStart(4, '0')}`;
  }
}

export function capitalise(text: string): string {
  return text ? text[0].toLocaleUpperCase() + text.slice(1) : text;
}
