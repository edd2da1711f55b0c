/** Stylesheets are bundled by esbuild (scripts/build-ui.ts). */
declare module '*.css';
