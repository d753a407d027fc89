// The API key lives in sessionStorage only: it is gone when the tab closes, and is never written
// to localStorage, cookies or the URL.
import { FolioClient } from 'folio-api/client';

const KEY_NAME = 'folio.playground.key';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_NAME);
}

export function rememberKey(key: string): void {
  sessionStorage.setItem(KEY_NAME, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY_NAME);
}

/** A client for this server (the playground is served by the Folio it talks to). */
export function clientFor(key: string): FolioClient {
  return new FolioClient({ baseUrl: location.origin, apiKey: key, maxRetries: 2 });
}
