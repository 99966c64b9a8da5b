/**
 * Property tests explore a fixed sequence of cases, so a CI run is repeatable; set FC_SEED to
 * explore others (a failure prints the seed and the counterexample to reproduce it).
 */
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
