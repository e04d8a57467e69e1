/**
 * The server's entry point (`npm start`, `npm run serve`, `npx node --import tsx apps/server/src/main.ts`).
 *
 * It checks the Node.js version before loading anything else (issue 48): on Node < 24 it prints
 * one line naming the project's own runtime and exits with code 1. The server itself starts in
 * start.ts, imported only after the check, so an old Node never parses the server's modules.
 */
import { exitUnlessSupportedNode } from './lib/node-runtime.ts';

exitUnlessSupportedNode();
await import('./start.ts');
