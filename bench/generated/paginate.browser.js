// Runs inside Chromium (html.ts's page): moves the source blocks onto fixed-size pages in reading
// order, splitting tables (their header repeated), lists and code listings where a page ends, adds
// each page's furniture, and reports every element where it landed, in fractions of its page.
// Plain JavaScript read as text and added to the page: the bench's TypeScript build would wrap
// functions in helpers the page does not have.
window.folioPaginate = function (config) {
  const PX = 4 / 3; // CSS pixels per point
  const W = config.page.width * PX;
  const H = config.page.height * PX;
  const M = config.page.margin * PX;
  // With Chromium's header and footer templates the page's own top and bottom margins belong to them.
  const top = config.templates ? 0 : M;
  const pageHeight = config.templates ? H - 2 * M : H;
  const pagesRoot = document.getElementById('pages');
  const source = document.getElementById('source');
  const pages = [];
  let lineNumber = 1;

  function newPage() {
    const page = document.createElement('div');
    page.className = 'page';
    page.style.height = `${pageHeight}px`;
    const body = document.createElement('div');
    body.className = 'body';
    body.style.left = `${M}px`;
    body.style.top = `${top}px`;
    body.style.width = `${W - 2 * M}px`;
    body.style.height = `${pageHeight - top - (config.templates ? 0 : M)}px`;
    const footnotes = document.createElement('div');
    footnotes.className = 'footnotes';
    footnotes.style.left = `${M}px`;
    footnotes.style.width = `${(W - 2 * M) * 0.6}px`;
    footnotes.style.bottom = `${config.templates ? 0 : M}px`;
    footnotes.style.display = 'none';
    page.append(body, footnotes);
    pagesRoot.append(page);
    const entry = { page, body, footnotes, number: pages.length + 1, marginNotes: [] };
    pages.push(entry);
    return entry;
  }

  const bodyHeight = (entry) => pageHeight - top - (config.templates ? 0 : M);

  // Whether anything in the page's body stands outside it. Every element's boxes are looked at,
  // not the body's scroll size: columns that overflow a right-to-left page grow to the left, where
  // no scroll size shows them.
  /** The body as tall as the page leaves it beside its footnotes. */
  function resize(entry) {
    const fh = entry.footnotes.style.display === 'none' ? 0 : entry.footnotes.getBoundingClientRect().height + 6;
    entry.body.style.height = `${bodyHeight(entry) - fh}px`;
  }

  function overflows(entry) {
    const body = entry.body;
    resize(entry);
    if (body.scrollWidth > body.clientWidth + 1 || body.scrollHeight > body.clientHeight + 1) return true;
    const b = body.getBoundingClientRect();
    for (const el of body.querySelectorAll('*')) {
      for (const r of el.getClientRects()) {
        if (r.width === 0 || r.height === 0) continue;
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) return true;
      }
    }
    // A table the columns broke in two (its header repeated in the next column) is one table in
    // the truth and two on the page: it does not fit there.
    for (const table of body.querySelectorAll('table')) {
      let bottom = -Infinity;
      for (const row of table.rows) {
        const r = row.getBoundingClientRect();
        if (r.top < bottom - 1) return true;
        bottom = r.bottom;
      }
    }
    return false;
  }

  function addFootnote(entry, text) {
    const note = document.createElement('div');
    note.className = 'footnote';
    note.dataset.kind = 'footnote';
    note.textContent = text;
    entry.footnotes.style.display = 'block';
    entry.footnotes.append(note);
    return note;
  }

  /** The part of `block` that fits after what the page holds, the rest returned (or null when nothing fits). */
  function splitToFit(entry, block) {
    const kind = block.dataset.kind;
    let items;
    if (kind === 'table-block') items = [...block.querySelectorAll('tbody tr')];
    else if (kind === 'list' || kind === 'contents') items = [...block.children];
    else if (kind === 'code') items = [...block.children];
    else return null;
    if (items.length < 2) return null;
    const rest = block.cloneNode(true);
    const restItems = kind === 'table-block' ? [...rest.querySelectorAll('tbody tr')] : [...rest.children];
    // Remove items from the end of the placed part until it fits, at least one kept.
    let kept = items.length;
    while (kept > 1 && overflows(entry)) {
      kept--;
      items[kept].remove();
    }
    if (overflows(entry)) return null;
    restItems.slice(0, kept).forEach((item) => item.remove());
    if (kind === 'table-block') {
      rest.dataset.continued = '1';
      // The rest of a table starts its page with the header repeated; its caption and note stay with the first part.
      rest.querySelectorAll('.table-caption').forEach((c) => c.remove());
      block.querySelectorAll('.table-note').forEach((c) => c.remove());
      rest.querySelectorAll('tbody tr').forEach((row) => row.querySelectorAll('td').forEach((td) => (td.dataset.row = String(Number(td.dataset.row) - kept))));
    }
    if (kind === 'list' && block.tagName === 'OL') rest.setAttribute('start', String(Number(block.getAttribute('start') || 1) + kept));
    return rest;
  }

  let entry = newPage();
  const queue = [...source.children];
  while (queue.length) {
    const block = queue.shift();
    entry.body.append(block);
    const footnote = block.dataset.footnote ? addFootnote(entry, block.dataset.footnote) : null;
    if (!overflows(entry)) continue;
    if (footnote) {
      footnote.remove();
      if (!entry.footnotes.children.length) entry.footnotes.style.display = 'none';
      resize(entry);
    }
    const rest = splitToFit(entry, block);
    if (rest) {
      queue.unshift(rest);
      entry = newPage();
      continue;
    }
    block.remove();
    resize(entry);
    if (entry.body.children.length === 0) {
      // Larger than an empty page: left out, and so out of the truth.
      continue;
    }
    // A heading goes with what follows it rather than stand alone at the foot of a page, unless
    // it is all the page would then be left with.
    const before = entry.body.lastElementChild;
    const moved = before && before.dataset.kind === 'heading' && entry.body.children.length > 1 ? before : null;
    if (moved) {
      moved.remove();
      resize(entry);
    }
    entry = newPage();
    queue.unshift(block);
    if (moved) queue.unshift(moved);
  }
  // A last page left empty by a block that fit nowhere.
  if (pages.length > 1 && pages[pages.length - 1].body.children.length === 0) pages.pop().page.remove();

  const f = config.furniture;
  const furniture = [];
  const small = (cls, text, css) => {
    const el = document.createElement('div');
    el.className = cls;
    el.textContent = text;
    Object.assign(el.style, css);
    return el;
  };
  const pageNumberText = (n) => (f.pageNumber === 'page-of' ? `Page ${n} of ${pages.length}` : f.pageNumber === 'dashed' ? `– ${n} –` : String(n));
  for (const p of pages) {
    const n = p.number;
    const outerRight = n % 2 === 1;
    if (!config.templates) {
      if (f.head && n > 1) {
        p.page.append(small('head', f.head, { top: `${M / 2 - 6}px`, [outerRight ? 'left' : 'right']: `${M}px` }));
        furniture.push({ kind: 'running-head', text: f.head, page: n });
      }
      if (f.foot) {
        p.page.append(small('foot', f.foot, { bottom: `${M / 2 - 8}px`, left: `${M}px` }));
        furniture.push({ kind: 'running-foot', text: f.foot, page: n });
      }
      if (f.pageNumber !== 'none') {
        const text = pageNumberText(n);
        const css = f.pageNumber === 'top-outer' ? { top: `${M / 2 - 6}px`, [outerRight ? 'right' : 'left']: `${M}px` } : f.pageNumber === 'bottom-outer' ? { bottom: `${M / 2 - 8}px`, [outerRight ? 'right' : 'left']: `${M}px` } : { bottom: `${M / 2 - 8}px`, left: '0', width: '100%', textAlign: 'center' };
        p.page.append(small('pagenum', text, css));
        furniture.push({ kind: 'page-number', text, page: n });
      }
    }
    if (f.stamp && n === 1) {
      const stamp = small('stamp', f.stamp, { left: `${Math.max(8, M / 2 - 10)}px`, top: `${pageHeight * 0.72}px` });
      p.page.append(stamp);
      furniture.push({ kind: 'stamp', text: f.stamp, page: n });
    }
    if (f.sideTab) {
      p.page.append(small('sidetab', f.sideTab, { right: '0', top: `${pageHeight * 0.25}px` }));
      furniture.push({ kind: 'side-tab', text: f.sideTab, page: n });
    }
    if (f.bleed) {
      // Rules across the whole sheet above and below the body, and a panel down the outer margin
      // from the upper rule off the foot of the sheet: drawn, but no text of the page.
      const rule = (y) => small('bleed-rule', '', { left: '0', width: `${W}px`, top: `${y}px` });
      p.page.append(rule(M - 8), rule(pageHeight - M + 8));
      p.page.append(small('bleed-panel', '', { [outerRight ? 'right' : 'left']: '0', width: `${M - 16}px`, top: `${M - 8}px`, height: `${pageHeight - M + 8}px`, background: f.bleed }));
    }
    if (f.lineNumbers) {
      const box = document.createElement('div');
      box.className = 'linenos';
      box.style.left = `${Math.max(4, M - 30)}px`;
      box.style.top = `${top}px`;
      box.style.width = '20px';
      const pitch = config.lineHeightPt * PX;
      const count = Math.floor(p.body.clientHeight / pitch);
      for (let i = 0; i < count; i++) {
        const line = document.createElement('div');
        line.textContent = String(lineNumber);
        box.append(line);
        furniture.push({ kind: 'line-number', text: String(lineNumber), page: n });
        lineNumber++;
      }
      p.page.append(box);
    }
    // Margin notes beside their paragraphs, in the outer margin.
    for (const para of p.body.querySelectorAll('[data-margin-note]')) {
      const pr = para.getBoundingClientRect();
      const pg = p.page.getBoundingClientRect();
      const note = small('margin-note', para.dataset.marginNote, { left: `${W - M + 6}px`, width: `${M - 12}px`, top: `${pr.top - pg.top}px`, whiteSpace: 'normal' });
      p.page.append(note);
      furniture.push({ kind: 'margin-note', text: para.dataset.marginNote, page: n });
    }
  }

  // Where everything landed, in fractions of the whole printed page.
  const offsetTop = config.templates ? M : 0;
  const boxOf = (el, pageEl) => {
    const r = el.getBoundingClientRect();
    const pg = pageEl.getBoundingClientRect();
    const round = (v) => Math.round(v * 10000) / 10000;
    return [round((r.left - pg.left) / W), round((r.top - pg.top + offsetTop) / H), round((r.right - pg.left) / W), round((r.bottom - pg.top + offsetTop) / H)];
  };
  const textOf = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('[data-skip]').forEach((s) => s.remove());
    return (copy.textContent || '').replace(/\s+/g, ' ').trim();
  };
  const blocks = [];
  const tables = [];
  let order = 0;
  const push = (kind, el, pageEl, n, extra) => {
    const text = textOf(el);
    if (text) blocks.push({ kind, text, page: n, box: boxOf(el, pageEl), order: order++, ...(extra || {}) });
  };
  for (const p of pages) {
    const n = p.number;
    for (const block of p.body.children) {
      const kind = block.dataset.kind;
      if (kind === 'title') {
        for (const part of block.children) {
          if (part.classList.contains('masthead')) for (const line of part.querySelectorAll('[data-kind="paragraph"]')) push('paragraph', line, p.page, n);
          else push(part.dataset.kind === 'title' ? 'title' : 'paragraph', part, p.page, n);
        }
      } else if (kind === 'heading') push('heading', block, p.page, n, { level: Number(block.dataset.level) });
      else if (kind === 'paragraph') push('paragraph', block, p.page, n);
      else if (kind === 'list') for (const li of block.children) push('list-item', li, p.page, n);
      else if (kind === 'contents') for (const line of block.children) push('contents-entry', line, p.page, n);
      else if (kind === 'quote') push('quote', block, p.page, n);
      else if (kind === 'aside') for (const part of block.querySelectorAll('[data-kind="paragraph"]')) push('paragraph', part, p.page, n);
      else if (kind === 'code') {
        const text = [...block.querySelectorAll('.code-text')].map((s) => s.textContent.replace(/\s+$/, '')).join('\n');
        blocks.push({ kind: 'code', text, page: n, box: boxOf(block, p.page), order: order++ });
      } else if (kind === 'equation') push('equation', block, p.page, n);
      else if (kind === 'figure') {
        for (const label of block.querySelectorAll('[data-kind="figure-label"]')) push('figure-label', label, p.page, n);
        for (const caption of block.querySelectorAll('figcaption')) push('caption', caption, p.page, n);
      } else if (kind === 'table-block') {
        for (const part of block.children) {
          if (part.dataset.kind === 'caption') push('caption', part, p.page, n);
          else if (part.dataset.kind === 'table-note') push('table-note', part, p.page, n);
          else if (part.tagName === 'TABLE') {
            const headerRows = Number(part.dataset.headerRows);
            const cells = [...part.querySelectorAll('th, td')].map((c) => ({
              row: Number(c.dataset.row),
              col: Number(c.dataset.col),
              rowSpan: Number(c.dataset.rowspan),
              colSpan: Number(c.dataset.colspan),
              text: textOf(c),
              header: c.tagName === 'TH',
              box: boxOf(c, p.page),
            }));
            const rows = cells.reduce((m, c) => Math.max(m, c.row + c.rowSpan), 0);
            tables.push({ page: n, rows, columns: Number(part.dataset.columns), headerRows, cells, box: boxOf(part, p.page), continued: block.dataset.continued === '1', order: order++, features: (part.dataset.features || '').split(' ').filter(Boolean) });
          }
        }
      }
    }
    for (const note of p.footnotes.children) push('footnote', note, p.page, n);
  }
  source.remove();
  return { pages: pages.length, blocks, tables, furniture };
};
