// `include=key_values`: label to {value, key_confidence, value_confidence, selection_status}.
import type { Page } from '../page-model.js';

export interface WireKeyValue {
  value: string;
  key_confidence: number;
  value_confidence: number;
  selection_status: 'SELECTED' | 'NOT_SELECTED' | null;
}

export function pageKeyValues(page: Page): Record<string, WireKeyValue> {
  const out: Record<string, WireKeyValue> = {};
  for (const kv of page.keyValues) {
    out[kv.key] = {
      value: kv.value,
      key_confidence: kv.keyConfidence,
      value_confidence: kv.valueConfidence,
      selection_status: kv.selectionStatus,
    };
  }
  return out;
}
