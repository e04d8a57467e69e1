/**
 * The ring tone of an incoming call, made with Web Audio (no audio file): two short 440/480 Hz
 * bursts every 3 s, as a phone rings. Silent where the browser has no AudioContext or blocks it.
 */
export function startRing(): () => void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return () => undefined;
  let ctx: AudioContext;
  try {
    ctx = new Ctx();
  } catch {
    return () => undefined;
  }
  const burst = () => {
    const t = ctx.currentTime;
    const gain = ctx.createGain();
    gain.gain.value = 0;
    gain.connect(ctx.destination);
    for (const f of [440, 480]) {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(t);
      o.stop(t + 1.2);
    }
    // on 0.4 s, off 0.2 s, on 0.4 s
    gain.gain.setValueAtTime(0.08, t);
    gain.gain.setValueAtTime(0, t + 0.4);
    gain.gain.setValueAtTime(0.08, t + 0.6);
    gain.gain.setValueAtTime(0, t + 1.0);
  };
  burst();
  const timer = setInterval(burst, 3000);
  return () => {
    clearInterval(timer);
    void ctx.close().catch(() => undefined);
  };
}
