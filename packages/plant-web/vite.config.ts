import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { apiVocabulary } from './build/api-vocabulary.js';
import { VALUE_LABELS } from './src/value-labels.js';

// The plant service serves dist/: index.html as the shell of every page path, dist/assets/*
// (content-hashed names, cached for a year) at /assets/.
export default defineConfig({
  plugins: [preact(), apiVocabulary(VALUE_LABELS)],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/auth': 'http://127.0.0.1:3000',
      '/img': 'http://127.0.0.1:3000',
    },
  },
});
