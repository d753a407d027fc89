#!/usr/bin/env node
// The package's command. The TypeScript sources are compiled to dist/ by `npm install` (the
// `prepare` script), so this file only hands over to the compiled entry point.
import('../dist/cli/main.js').then((cli) => cli.main(process.argv.slice(2)));
