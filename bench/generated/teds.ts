// A table's structure score by tree edit distance (TEDS, as PubTabNet defines it): a table is a
// tree (table, rows, cells), and the score is 1 − the edit distance between the two trees over the
// larger tree's size. Renaming a cell costs the normalised edit distance between the two cell texts
// (1 when their spans differ); renaming a row or the table costs nothing. The distance is
// Zhang and Shasha's algorithm, exact, over trees of a few hundred nodes.
import { levenshtein, normalizeCell } from '../quality/metrics.js';

export interface TedsCell {
  text: string;
  rowSpan: number;
  colSpan: number;
}

interface Node {
  label: 'table' | 'row' | 'cell';
  cell?: TedsCell;
  children: Node[];
}

/** Rows of cells, each cell once in the row where it starts. */
export function tableTree(rows: TedsCell[][]): Node {
  return { label: 'table', children: rows.map((cells) => ({ label: 'row', children: cells.map((cell) => ({ label: 'cell', cell: { ...cell, text: normalizeCell(cell.text) }, children: [] })) })) };
}

function renameCost(a: Node, b: Node): number {
  if (a.label !== b.label) return 1;
  if (a.label !== 'cell') return 0;
  const x = a.cell!;
  const y = b.cell!;
  if (x.rowSpan !== y.rowSpan || x.colSpan !== y.colSpan) return 1;
  const longest = Math.max([...x.text].length, [...y.text].length);
  return longest === 0 ? 0 : levenshtein(x.text, y.text) / longest;
}

/** Post-order nodes with each one's leftmost leaf descendant, and the keyroots. */
function index(root: Node): { nodes: Node[]; leftmost: number[]; keyroots: number[] } {
  const nodes: Node[] = [];
  const leftmost: number[] = [];
  const walk = (node: Node): number => {
    let first = -1;
    for (const child of node.children) {
      const l = walk(child);
      if (first < 0) first = l;
    }
    nodes.push(node);
    const at = nodes.length - 1;
    leftmost[at] = first < 0 ? at : first;
    return leftmost[at];
  };
  walk(root);
  const seen = new Map<number, number>();
  for (let i = 0; i < nodes.length; i++) seen.set(leftmost[i], i);
  return { nodes, leftmost, keyroots: [...seen.values()].sort((a, b) => a - b) };
}

export function treeEditDistance(a: Node, b: Node): number {
  const A = index(a);
  const B = index(b);
  const n = A.nodes.length;
  const m = B.nodes.length;
  const td = Array.from({ length: n }, () => new Float64Array(m));
  const fd = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  for (const i of A.keyroots) {
    for (const j of B.keyroots) {
      const li = A.leftmost[i];
      const lj = B.leftmost[j];
      fd[0][0] = 0;
      for (let x = li; x <= i; x++) fd[x - li + 1][0] = fd[x - li][0] + 1;
      for (let y = lj; y <= j; y++) fd[0][y - lj + 1] = fd[0][y - lj] + 1;
      for (let x = li; x <= i; x++) {
        for (let y = lj; y <= j; y++) {
          const dx = x - li + 1;
          const dy = y - lj + 1;
          if (A.leftmost[x] === li && B.leftmost[y] === lj) {
            fd[dx][dy] = Math.min(fd[dx - 1][dy] + 1, fd[dx][dy - 1] + 1, fd[dx - 1][dy - 1] + renameCost(A.nodes[x], B.nodes[y]));
            td[x][y] = fd[dx][dy];
          } else {
            const px = A.leftmost[x] - li;
            const py = B.leftmost[y] - lj;
            fd[dx][dy] = Math.min(fd[dx - 1][dy] + 1, fd[dx][dy - 1] + 1, fd[px][py] + td[x][y]);
          }
        }
      }
    }
  }
  return td[n - 1][m - 1];
}

function size(node: Node): number {
  return 1 + node.children.reduce((sum, child) => sum + size(child), 0);
}

/** 1 for the same table, 0 for nothing in common. */
export function teds(truth: TedsCell[][], output: TedsCell[][]): number {
  const a = tableTree(truth);
  const b = tableTree(output);
  return 1 - treeEditDistance(a, b) / Math.max(size(a), size(b));
}
