// The layers of src/ import only downward, and no files import each other in a loop. The rule is
// the table in docs/architecture.md ("may import"), read from there, so the document and the check
// cannot drift apart. Imports are read from the import and export lines of every source file
// (type-only ones included: a loop of types is a loop for the reader too).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/folio.js';

const SRC = path.join(ROOT, 'src');

interface Rule {
  layer: string;
  /** Layers (folder or file names under src/ without extension) and single files (`queue/wakeup.ts`) it may import. */
  allowed: string[];
}

/** The table of docs/architecture.md: a row per layer, the last column backticked names. */
function layerRules(): Rule[] {
  const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const rules: Rule[] = [];
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !/^`[\w-]+`$/.test(cells[1])) continue;
    rules.push({ layer: cells[1].slice(1, -1), allowed: [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]) });
  }
  return rules;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Each file's imports of other files of src/, as paths relative to src/ (`pipeline/run.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const from = path.relative(SRC, file);
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier.startsWith('.')) continue;
      targets.push(path.relative(SRC, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts'));
    }
    graph.set(from, targets);
  }
  return graph;
}

const layerOf = (file: string) => file.split('/')[0].replace(/\.ts$/, '');

/** Files in import loops, each loop once (Tarjan's strongly connected components). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) loops.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

describe('the architecture of src/', () => {
  const rules = layerRules();
  const graph = importGraph();

  it('has a rule in docs/architecture.md for every layer, and a layer for every rule', () => {
    const layers = new Set([...graph.keys()].map(layerOf));
    expect(rules.map((r) => r.layer).sort()).toEqual([...layers].sort());
  });

  it('imports only what each layer may import', () => {
    const byLayer = new Map(rules.map((r) => [r.layer, r.allowed]));
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const layer = layerOf(file);
      const allowed = byLayer.get(layer) ?? [];
      for (const target of targets) {
        const targetLayer = layerOf(target);
        if (targetLayer === layer || allowed.includes(targetLayer) || allowed.includes(target)) continue;
        wrong.push(`${file} imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no files that import each other in a loop', () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it('finds what it is meant to find', () => {
    // The check itself, on a small graph: a loop of three, and a file importing itself.
    const loops = importLoops(
      new Map([
        ['a/x.ts', ['a/y.ts']],
        ['a/y.ts', ['b/z.ts']],
        ['b/z.ts', ['a/x.ts', 'b/w.ts']],
        ['b/w.ts', []],
        ['c/s.ts', ['c/s.ts']],
      ]),
    );
    expect(loops).toEqual([['a/x.ts', 'a/y.ts', 'b/z.ts'], ['c/s.ts']]);
    expect(rules.find((r) => r.layer === 'domain')?.allowed).toEqual([]);
    expect(rules.find((r) => r.layer === 'pipeline')?.allowed).not.toContain('queue');
  });
});
