import { createRequire as __createRequire } from 'node:module';
const require = __createRequire(import.meta.url);
