// Entry point of dist/action.js (action.yml `runs.main`): everything happens in run().
import { run } from './main.js';

await run();
