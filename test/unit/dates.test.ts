// Dates as the built-in engine reads them from a line of text: every date from whole tokens, as
// printed, however many numeric dates stand side by side (a table header of periods).
import { describe, expect, it } from 'vitest';
import { findDates, findDateTerms, isoDatesIn } from '../../src/models/llm/builtin/dates.js';

describe('dates in a line', () => {
  it('reads a run of numeric dates one by one, never the tail of one with the head of the next', () => {
    const header = 'Loan type 12/31/2009 12/31/2010 6/30/2011 12/31/2009 12/31/2010 6/30/2011';
    const found = findDates(header, 'month-first');
    expect(found.map((d) => d.text)).toEqual(['12/31/2009', '12/31/2010', '6/30/2011', '12/31/2009', '12/31/2010', '6/30/2011']);
    expect(found.map((d) => d.iso)).toEqual(['2009-12-31', '2010-12-31', '2011-06-30', '2009-12-31', '2010-12-31', '2011-06-30']);
    for (const date of found) expect(header.slice(date.index, date.index + date.text.length)).toBe(date.text);
    expect(isoDatesIn('12/31/2010 6/30/2011')).not.toContain('2010-06-30');
  });

  it('reads written dates around numeric ones, and a time beside a date stays out of it', () => {
    expect(findDates('Invoice date: March 14, 2024, due 2024-04-13', 'month-first').map((d) => d.iso)).toEqual(['2024-03-14', '2024-04-13']);
    expect(findDates('06/03/2018 20:01 TOTAL', 'day-first').map((d) => [d.text, d.iso])).toEqual([['06/03/2018', '2018-03-06']]);
    expect(findDates('Date 12/03/19, 5 Mar 2021', 'day-first').map((d) => d.iso)).toEqual(['2019-03-12', '2021-03-05']);
  });

  it('takes no date out of a longer number', () => {
    expect(findDates('Tel 012-345-6789, ref 2019-01-02-77', 'day-first')).toEqual([]);
  });
});

describe('terms that count a day from another', () => {
  it('reads the term with what it counts from, up to the end of its clause', () => {
    const terms = (text: string) => findDateTerms(text).map((t) => t.text);
    expect(terms('Payment is due within 30 days of the invoice date. Thank you.')).toEqual(['within 30 days of the invoice date']);
    expect(terms('Terms: Net 30')).toEqual(['Net 30']);
    expect(terms('Payable upon receipt of this invoice, by transfer')).toEqual(['upon receipt of this invoice']);
    expect(terms('due in 2 weeks from shipment; late fees apply')).toEqual(['in 2 weeks from shipment']);
    // A new sentence run on without its full stop ends the term.
    expect(terms('due within 30 days of the invoice date Please pay by transfer')).toEqual(['within 30 days of the invoice date']);
    expect(terms('Invoice date: March 14, 2024')).toEqual([]);
  });
});
