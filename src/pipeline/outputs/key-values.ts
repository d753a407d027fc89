// `include=key_values`: label to {value, key_confidence, value_confidence, selection_status}, and
// (additive) the `bbox` of the pair on its page, label and value together.
import { fractionBox, type WireKeyValue } from '../../page-outputs/shapes.js';
import type { Page } from '../page-model.js';


export function pageKeyValues(page: Page): Record<string, WireKeyValue> {
  const out: Record<string, WireKeyValue> = {};
  for (const kv of page.keyValues) {
    out[kv.key] = {
      value: kv.value,
      key_confidence: kv.keyConfidence,
      value_confidence: kv.valueConfidence,
      selection_status: kv.selectionStatus,
      bbox: fractionBox(kv.box, page.width, page.height),
    };
  }
  return out;
}
