// Entry point of dist/action.js (not implemented yet).
export {};
