/**
 * Import this first in a command-line entry point (cli/*.ts): on Node.js < 24 it prints one line
 * naming the project's own runtime and exits with code 1 before the tool does anything (issue 48).
 * ES modules evaluate their imports in order, so nothing imported after it has run yet.
 */
import { exitUnlessSupportedNode } from './node-runtime.ts';

exitUnlessSupportedNode();
