/**
 * The JSON the server injected into the page as `<script type="application/json" id="…">`, parsed; undefined when
 * the element is missing or does not hold JSON (a page opened without its server, or a tampered copy).
 */
export function readJsonScript<T>(id: string): T | undefined {
  const element = document.getElementById(id);
  if (!(element instanceof HTMLScriptElement) || element.type !== "application/json") return undefined;
  try {
    return JSON.parse(element.textContent ?? "") as T;
  } catch {
    return undefined;
  }
}
