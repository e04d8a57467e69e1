import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';
import { webAliases } from './aliases.ts';

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip twins of every text asset, made once at build time and served as they are
    // by @fastify/static (preCompressed): no compression work per request.
    compression({
      include: /\.(js|css|html|svg|json)$/,
      exclude: /\.vite\//,
      threshold: 1024,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
    }),
  ],
  resolve: { alias: webAliases },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/config.js': 'http://127.0.0.1:3000',
      '/mqtt': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
  // the manifest feeds the size budget (tools/bundle)
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Split automatically, the modules every lazy page shares came as 20-odd files of under
            // 1 KB each (Mantine's Box, UnstyledButton, FocusTrap, Portal and small hooks; our
            // money, digits and format helpers): a first visit to home was 48 requests. Two chunks
            // of what 20 (Mantine) and 30 (ours) or more pages share make it 21 requests at about
            // the same size (issue 23; `npm run size`; budget.test.ts holds it to 25). Lower share
            // counts pull in components home does not use (Mantine at 10: 204 KB, over the budget).
            { name: 'mantine-base', test: /node_modules[\\/]@mantine[\\/](core|hooks)[\\/]/, minShareCount: 20 },
            { name: 'app-base', test: /apps[\\/]web[\\/]src[\\/](lib|components|i18n)[\\/]/, minShareCount: 30 },
          ],
        },
      },
    },
  },
});
