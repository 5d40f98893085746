import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The plant service serves dist/: index.html as the shell of every page path, dist/assets/*
// (content-hashed names, cached for a year) at /assets/.
export default defineConfig({
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/auth': 'http://127.0.0.1:3000',
      '/img': 'http://127.0.0.1:3000',
    },
  },
});
