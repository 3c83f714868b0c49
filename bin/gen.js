#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx gen …` works right after `npm ci`
// with no build step to remember.
import { register } from 'tsx/esm/api';

register();
await import('../gen/cli/main.ts');
