import { useEffect, useState } from 'react';

let painted = false;
let firstPaint: Promise<void> | undefined;

/**
 * Resolves after the page's first commit has been painted: the frame after the first commit, then
 * the next task. Everything the reader does not see at once (the call layer, the toast container,
 * the header's unread counts) waits for it, so its chunks and its work do not compete with the first
 * render for the main thread (issue 23: the board's first row). The real-time connection does not
 * (issue 48): what is committed before it opens is only re-read once it has, so it starts at once.
 */
const whenPainted = () =>
  (firstPaint ??= new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))).then(() => {
    painted = true;
  });

/** false until the first commit has been painted (see whenPainted); true from then on, at once for later mounts. */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(painted);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void whenPainted().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}
