// Office Math (OMML, the m: elements Word and PowerPoint store equations in) written as LaTeX, the
// notation a reader can paste into any math renderer and that keeps what the linear text of the
// runs loses: which part is a numerator, an exponent, a bound of a sum or the degree of a root.
// Each OMML object maps to the LaTeX construct that draws it: fractions \frac{}{}, scripts _{} ^{},
// radicals \sqrt[]{}, n-ary operators with their limits (\sum_{}^{}, \int_{}^{}), delimiters that
// grow with their content \left( \right), functions (\sin, \log, \lim_{}), matrices and equation
// arrays, accents (\hat, \vec, ...), bars, group characters and boxes. The characters of a run
// become their math-mode LaTeX: Greek letters and symbols as commands, dashes used as minus as
// "-", LaTeX's special characters escaped. No JavaScript library converts OMML (the known
// converters are XSLT sheets or Python), so the mapping is written here.
import type { XmlNode } from './package.js';

/** An equation's place in its paragraph: alone (display, `$$…$$`) or within text (inline, `$…$`). */
export function mathMarkup(latex: string, display: boolean): string {
  return display ? `$$${latex}$$` : `$${latex}$`;
}

/** Inline equations as `mathMarkup` writes them (LaTeX here never holds an unescaped `$`). */
const INLINE_MATH = /\$(?:\\.|[^$\\])+\$/g;

/** A paragraph's text with its equations displayed when they are all it holds, as Word and PowerPoint show them. */
export function displayLoneEquations(text: string): string {
  return text.replace(INLINE_MATH, '').trim() ? text : text.replace(INLINE_MATH, (inline) => `$${inline}$`);
}

/** The equations of an m:oMathPara (one per line) or of one m:oMath, as LaTeX. */
export function equations(node: XmlNode): string[] {
  if (local(node.name) === 'oMathPara') return node.children.filter((c) => local(c.name) === 'oMath').map(ommlToLatex).filter(Boolean);
  const latex = ommlToLatex(node);
  return latex ? [latex] : [];
}

/** One m:oMath as LaTeX, spaces as the runs hold them (collapsed). */
export function ommlToLatex(node: XmlNode): string {
  return convert(node.children, {}).replace(/\s+/g, ' ').trim();
}

interface Scope {
  /** Inside a function name (m:fName) or the base of a limit: known names become commands. */
  functionName?: boolean;
  /** Inside an equation array: alignment points (m:aln) become `&`. */
  aligned?: boolean;
}

function local(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function childOf(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => local(c.name) === name && !c.name.startsWith('w:'));
}

/** A property's m:val (e.g. m:chr of m:naryPr); undefined when absent. */
function property(node: XmlNode, props: string, name: string): string | undefined {
  const prop = childOf(childOf(node, props), name);
  if (!prop) return undefined;
  return prop.attrs['m:val'] ?? prop.attrs.val ?? '';
}

/** Whether an on/off property is on (present without a value, or "1"/"on"/"true"). */
function flag(node: XmlNode, props: string, name: string): boolean {
  const value = property(node, props, name);
  return value !== undefined && value !== '0' && value !== 'off' && value !== 'false';
}

function argument(node: XmlNode, name: string, scope: Scope): string {
  const arg = childOf(node, name);
  // Only a function name and the base it is scripted on name the function (log, not its base 2).
  const inner = name === 'e' || name === 'fName' ? scope : { ...scope, functionName: false };
  return arg ? convert(arg.children, inner).trim() : '';
}

/** Concatenates LaTeX, with a space where a command name would run into a following letter. */
function join(parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(part)) out += ' ';
    out += part;
  }
  return out;
}

function convert(nodes: XmlNode[], scope: Scope): string {
  return join(nodes.map((node) => element(node, scope)));
}

function element(node: XmlNode, scope: Scope): string {
  if (node.name === '#text') return '';
  // Tracked changes inside an equation: insertions read, deletions left out (as in the text).
  if (node.name === 'w:ins' || node.name === 'w:moveTo') return convert(node.children, scope);
  if (node.name.startsWith('w:')) return '';
  const name = local(node.name);
  if (name.endsWith('Pr')) return '';
  switch (name) {
    case 'r':
      return run(node, scope);
    case 'f':
      return fraction(node, scope);
    case 'sSub':
      return scripted(argument(node, 'e', scope), `_{${argument(node, 'sub', scope)}}`);
    case 'sSup':
      return scripted(argument(node, 'e', scope), `^{${argument(node, 'sup', scope)}}`);
    case 'sSubSup':
      return scripted(argument(node, 'e', scope), `_{${argument(node, 'sub', scope)}}^{${argument(node, 'sup', scope)}}`);
    case 'sPre':
      return join([`{}_{${argument(node, 'sub', scope)}}^{${argument(node, 'sup', scope)}}`, argument(node, 'e', scope)]);
    case 'rad': {
      const degree = flag(node, 'radPr', 'degHide') ? '' : argument(node, 'deg', scope);
      return `\\sqrt${degree ? `[${degree}]` : ''}{${argument(node, 'e', scope)}}`;
    }
    case 'nary':
      return nary(node, scope);
    case 'd':
      return delimited(node, scope);
    case 'func':
      return join([argument(node, 'fName', { ...scope, functionName: true }), argument(node, 'e', scope)]);
    case 'limLow': {
      const base = argument(node, 'e', { ...scope, functionName: true });
      const limit = argument(node, 'lim', scope).replace(/\\rightarrow(?![A-Za-z])/g, '\\to');
      // An operator (\lim, \max, \sum, a brace) takes its limit below as a subscript.
      return base.startsWith('\\') ? `${base}_{${limit}}` : `\\underset{${limit}}{${base}}`;
    }
    case 'limUpp':
      return `\\overset{${argument(node, 'lim', scope)}}{${argument(node, 'e', scope)}}`;
    case 'acc':
      return accent(node, scope);
    case 'bar':
      return property(node, 'barPr', 'pos') === 'top' ? `\\overline{${argument(node, 'e', scope)}}` : `\\underline{${argument(node, 'e', scope)}}`;
    case 'groupChr':
      return groupCharacter(node, scope);
    case 'borderBox':
      return `\\boxed{${argument(node, 'e', scope)}}`;
    case 'phant':
      return property(node, 'phantPr', 'show') === '0' ? '' : argument(node, 'e', scope);
    case 'm':
      return matrix(node, scope);
    case 'eqArr': {
      const rows = node.children.filter((c) => local(c.name) === 'e').map((e) => convert(e.children, { ...scope, aligned: true }).trim());
      return `\\begin{aligned}${rows.join('\\\\')}\\end{aligned}`;
    }
    default:
      // m:oMath, m:box and the arguments (m:e, m:num, m:sub, ...) read as their content.
      return convert(node.children, scope);
  }
}

/** A base with scripts; a base that already carries a script is grouped, so the two never clash. */
function scripted(base: string, scripts: string): string {
  const grouped = base === '' ? '{}' : /[_^]/.test(base) && !/^\\left/.test(base) ? `{${base}}` : base;
  return `${grouped}${scripts}`;
}

function fraction(node: XmlNode, scope: Scope): string {
  const numerator = argument(node, 'num', scope);
  const denominator = argument(node, 'den', scope);
  switch (property(node, 'fPr', 'type')) {
    case 'lin':
    case 'skw':
      return `${group(numerator)}/${group(denominator)}`;
    case 'noBar':
      return `\\genfrac{}{}{0pt}{}{${numerator}}{${denominator}}`;
    default:
      return `\\frac{${numerator}}{${denominator}}`;
  }
}

/** One symbol stays as it is; anything longer is braced. */
function group(latex: string): string {
  return latex.length <= 1 || /^\\[A-Za-z]+$/.test(latex) ? latex : `{${latex}}`;
}

const NARY: Record<string, string> = {
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint', '∯': '\\oiint', '∰': '\\oiiint',
  '⋃': '\\bigcup', '⋂': '\\bigcap', '⋁': '\\bigvee', '⋀': '\\bigwedge', '⨀': '\\bigodot', '⨁': '\\bigoplus', '⨂': '\\bigotimes', '⨄': '\\biguplus',
};

function nary(node: XmlNode, scope: Scope): string {
  // Without m:chr the operator is an integral (ECMA-376 22.1.2.20).
  const symbol = property(node, 'naryPr', 'chr') || '∫';
  let operator = NARY[symbol] ?? characters(symbol);
  const lower = flag(node, 'naryPr', 'subHide') ? '' : argument(node, 'sub', scope);
  const upper = flag(node, 'naryPr', 'supHide') ? '' : argument(node, 'sup', scope);
  if (lower) operator += `_{${lower}}`;
  if (upper) operator += `^{${upper}}`;
  return join([operator, argument(node, 'e', scope)]);
}

const DELIMITERS: Record<string, string> = {
  '(': '(', ')': ')', '[': '[', ']': ']', '{': '\\{', '}': '\\}', '|': '|', '‖': '\\|', '⟨': '\\langle', '〈': '\\langle', '⟩': '\\rangle', '〉': '\\rangle',
  '⌈': '\\lceil', '⌉': '\\rceil', '⌊': '\\lfloor', '⌋': '\\rfloor', '⟦': '[\\![', '⟧': ']\\!]', '/': '/', '\\': '\\backslash',
};

function delimiter(symbol: string | undefined, fallback: string): string {
  const chosen = symbol === undefined ? fallback : symbol;
  // An empty begChr or endChr draws no delimiter on that side: LaTeX's "\left." does the same.
  return chosen === '' ? '.' : (DELIMITERS[chosen] ?? characters(chosen));
}

function delimited(node: XmlNode, scope: Scope): string {
  const open = delimiter(property(node, 'dPr', 'begChr'), '(');
  const close = delimiter(property(node, 'dPr', 'endChr'), ')');
  const separator = property(node, 'dPr', 'sepChr');
  const items = node.children.filter((c) => local(c.name) === 'e').map((e) => convert(e.children, scope).trim());
  const between = separator === undefined ? '|' : separator === '' ? ',' : (DELIMITERS[separator] ?? characters(separator));
  return `\\left${open}${items.join(between)}\\right${close}`;
}

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat', '^': '\\hat', '\u0303': '\\tilde', '~': '\\tilde', '˜': '\\tilde', '\u0304': '\\bar', '¯': '\\bar', '\u0305': '\\overline',
  '\u0307': '\\dot', '˙': '\\dot', '\u0308': '\\ddot', '¨': '\\ddot', '\u20db': '\\dddot', '\u20d7': '\\vec', '→': '\\vec', '\u030c': '\\check', 'ˇ': '\\check',
  '\u0306': '\\breve', '˘': '\\breve', '\u0301': '\\acute', '´': '\\acute', '\u0300': '\\grave', '`': '\\grave', '\u20d6': '\\overleftarrow', '\u20e1': '\\overleftrightarrow',
};

function accent(node: XmlNode, scope: Scope): string {
  // Without m:chr the accent is a circumflex (ECMA-376 22.1.2.20).
  const symbol = property(node, 'accPr', 'chr') || '\u0302';
  const base = argument(node, 'e', scope);
  const command = ACCENTS[symbol];
  return command ? `${command}{${base}}` : `\\overset{${characters(symbol)}}{${base}}`;
}

function groupCharacter(node: XmlNode, scope: Scope): string {
  // Defaults: a bottom curly bracket, below the base (ECMA-376 22.1.2.20, 22.1.2.84).
  const symbol = property(node, 'groupChrPr', 'chr') || '⏟';
  const top = property(node, 'groupChrPr', 'pos') === 'top';
  const base = argument(node, 'e', scope);
  if (symbol === '⏟') return `\\underbrace{${base}}`;
  if (symbol === '⏞') return `\\overbrace{${base}}`;
  return top ? `\\overset{${characters(symbol)}}{${base}}` : `\\underset{${characters(symbol)}}{${base}}`;
}

function matrix(node: XmlNode, scope: Scope): string {
  const rows = node.children
    .filter((c) => local(c.name) === 'mr')
    .map((row) => row.children.filter((c) => local(c.name) === 'e').map((e) => convert(e.children, scope).trim()).join('&'));
  return `\\begin{matrix}${rows.join('\\\\')}\\end{matrix}`;
}

/** Function names LaTeX sets upright as operators of their own. */
const FUNCTIONS = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'log', 'ln', 'lg', 'exp',
  'lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf', 'det', 'gcd', 'deg', 'dim', 'ker', 'hom', 'arg', 'Pr',
]);

function run(node: XmlNode, scope: Scope): string {
  const properties = childOf(node, 'rPr');
  const text = node.children
    .filter((c) => local(c.name) === 't' || c.name === 'w:t')
    .map((t) => t.children.map((c) => c.text ?? '').join(''))
    .join('');
  const align = scope.aligned && childOf(properties, 'aln') ? '&' : '';
  if (!text) return align;
  // Ordinary text inside an equation (m:nor), e.g. "if" or "otherwise", is set as text.
  if (childOf(properties, 'nor') && /[A-Za-z]{2,}/.test(text)) return `${align}\\text{${text.replace(/[\\{}]/g, (c) => `\\${c}`)}}`;
  const word = text.trim();
  const upright = property(node, 'rPr', 'sty') === 'p';
  if ((scope.functionName || upright) && FUNCTIONS.has(word)) return `${align}\\${word}`;
  if (scope.functionName && /^[A-Za-z]{2,}$/.test(word)) return `${align}\\operatorname{${word}}`;
  return align + characters(text);
}

/** Math-mode LaTeX for the characters of a run. */
const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta', θ: '\\theta', ϑ: '\\vartheta',
  ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi', ο: 'o', π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma',
  ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon', φ: '\\varphi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega',
  Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  '±': '\\pm', '∓': '\\mp', '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot', '∗': '\\ast', '∘': '\\circ', '∙': '\\bullet',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '≅': '\\cong', '∼': '\\sim', '≃': '\\simeq', '∝': '\\propto',
  '≪': '\\ll', '≫': '\\gg', '≺': '\\prec', '≻': '\\succ', '⊥': '\\perp', '∥': '\\parallel', '∣': '\\mid', '≜': '\\triangleq', '≔': ':=',
  '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset', '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq', '∪': '\\cup', '∩': '\\cap',
  '∖': '\\setminus', '∅': '\\emptyset', '∀': '\\forall', '∃': '\\exists', '∄': '\\nexists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee',
  '⊕': '\\oplus', '⊗': '\\otimes', '⊙': '\\odot', '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla', 'ℏ': '\\hbar', 'ℓ': '\\ell', 'ℜ': '\\Re',
  'ℑ': '\\Im', 'ℵ': '\\aleph', '∠': '\\angle', '△': '\\triangle', '°': '^{\\circ}', '′': "'", '″': "''", '‴': "'''",
  '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto', '↑': '\\uparrow', '↓': '\\downarrow', '⟶': '\\longrightarrow', '⟹': '\\Longrightarrow',
  '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots', '√': '\\surd',
  '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint',
  // Dashes typed for a minus sign are one.
  '−': '-', '–': '-', '—': '-',
  // LaTeX's special characters, which a run holds as themselves.
  '{': '\\{', '}': '\\}', '#': '\\#', $: '\\$', '%': '\\%', '&': '\\&', _: '\\_', '~': '\\sim', '\\': '\\backslash',
  '\u00a0': ' ', '\u2009': '\\,', '\u2061': '', '\u2062': '', '\u2063': '', '\u200b': '',
};

function characters(text: string): string {
  const parts: string[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // Mathematical alphanumerics (italic x, bold A, ...) are their letter or digit; Word keeps the style apart.
    const plain = code >= 0x1d400 && code <= 0x1d7ff ? ch.normalize('NFKC') : ch;
    parts.push(SYMBOLS[plain] ?? plain);
  }
  return join(parts);
}
