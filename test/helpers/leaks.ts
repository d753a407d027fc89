// What the runtime's or an engine's own words look like, so that tests can hold every message a
// client reads to being Folio's: JavaScript error names, Node and framework error codes, stack
// frames and file paths. Folio's own API paths (/api/v1/...) are words it may use.
const LEAK_PATTERNS: [string, RegExp][] = [
  ['a JavaScript error name', /\b[A-Z][A-Za-z]*Error\b|\bError:/],
  ['a JavaScript runtime message', /Maximum call stack|Cannot read propert|is not a function|is not defined|Unexpected token|Unexpected end of (?:JSON|input)/],
  ['a system error code', /\b(?:ENOENT|EACCES|EPERM|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|ENOSPC|EMFILE|EISDIR|ERR_[A-Z_]+)\b/],
  ['a framework error code', /\b(?:FST|HPE)_[A-Z_]+\b/],
  ['a stack frame', /\bat (?:\S+ \()?(?:file:|node:|\/)\S*:\d+:\d+|\.(?:js|ts|mjs|cjs):\d+/],
  ['a file path', /(?:^|[\s("'`=:])\/(?!api\/)(?:[\w.@-]+\/)+[\w.@-]*|node_modules|file:\/\/|\b[A-Za-z]:\\/],
];

/** What in `message` reads as internals rather than Folio's words, or null when nothing does. */
export function internalLeak(message: string): string | null {
  for (const [what, pattern] of LEAK_PATTERNS) {
    const found = message.match(pattern);
    if (found) return `${what} ("${found[0].trim()}")`;
  }
  return null;
}

/** Every `error.message` in a JSON answer (an error body, a failed document or query, a batch entry). */
export function errorMessagesIn(value: unknown, depth = 0): string[] {
  if (depth > 8 || typeof value !== 'object' || value === null) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === 'error' && typeof child === 'object' && child !== null && typeof (child as { message?: unknown }).message === 'string') {
      out.push((child as { message: string }).message);
    }
    out.push(...errorMessagesIn(child, depth + 1));
  }
  return out;
}
