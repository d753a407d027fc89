// Boxes drawn over the page picture. All positions are fractions of the page (the wire's `bbox`),
// and the SVG's viewBox is the unit square stretched over the picture, so they need no scaling.
import type { Page } from 'folio-api/client';
import { svg } from './dom.js';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

type LayoutElement = NonNullable<Page['layout']>[number];

/** One box in the page's unit square; the chunk view draws its pictures' boxes with it too, so both views look alike. */
export function rect(box: Box, className: string): SVGRectElement {
  return svg('rect', { x: box.left, y: box.top, width: box.width, height: box.height, class: className, 'vector-effect': 'non-scaling-stroke' });
}

export class Overlay {
  private readonly layoutGroup = svg('g', { class: 'layout-boxes' });
  private readonly focusGroup = svg('g', { class: 'focus-boxes' });
  private readonly citationGroup = svg('g', { class: 'citation-boxes' });

  constructor(private readonly root: SVGSVGElement) {
    root.replaceChildren(this.layoutGroup, this.citationGroup, this.focusGroup);
  }

  /** Every layout element, coloured by type (`type-<name>` classes in the stylesheet). */
  showLayout(elements: LayoutElement[]): void {
    this.layoutGroup.replaceChildren(...elements.map((e) => rect(e.bbox, `box type-${e.type}`)));
  }

  setLayoutVisible(visible: boolean): void {
    this.layoutGroup.style.display = visible ? '' : 'none';
  }

  /** The box of whatever has focus in the panels beside the page (a table, a cell, an element). */
  focus(box: Box | null | undefined): void {
    this.focusGroup.replaceChildren(...(box ? [rect(box, 'box focused')] : []));
  }

  /** A cited quote's box, kept until another citation is shown or the page changes. */
  cite(box: Box | null | undefined): void {
    this.citationGroup.replaceChildren(...(box ? [rect(box, 'box citation')] : []));
  }

  clear(): void {
    this.layoutGroup.replaceChildren();
    this.focusGroup.replaceChildren();
    this.citationGroup.replaceChildren();
  }
}
