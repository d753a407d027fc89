// The bounds of `max_tokens` on GET /documents/{id}/chunks, apart from the chunker itself so the
// browser playground, which offers the same choice, takes them from here and never drifts.
export const DEFAULT_CHUNK_TOKENS = 512;
export const MIN_CHUNK_TOKENS = 64;
export const MAX_CHUNK_TOKENS = 4096;
