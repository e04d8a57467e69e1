/**
 * Wrap user-entered text (company and person names, often Latin inside an Arabic sentence) in
 * Unicode "first strong isolate" marks — the plain-text twin of <bdi> / dir="auto" — so its
 * punctuation stays on its own side: "Qahtani Transport Co." and not ".Qahtani Transport Co".
 * For interpolation into translated sentences; in JSX, wrap the value in <bdi>.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
