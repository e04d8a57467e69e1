import { parentPort } from 'node:worker_threads';
import { backtest, forecastLane } from './forecast.ts';

/*
 * The forecast's CPU work off the server's event loop (issue 20): fitting MSTL + AutoETS and the
 * 12-origin backtest of a lane take 0.1–0.7 s of CPU, which would stall every other request of
 * the process. forecast.service.ts posts `{ id, op, args }` here and awaits `{ id, result }` or
 * `{ id, error }`. Pure functions of forecast.ts only; no database.
 */
type Request = { id: number; op: 'backtest'; args: Parameters<typeof backtest> } | { id: number; op: 'forecast'; args: Parameters<typeof forecastLane> };

parentPort?.on('message', (m: Request) => {
  try {
    const result = m.op === 'backtest' ? backtest(...m.args) : forecastLane(...m.args);
    parentPort!.postMessage({ id: m.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
