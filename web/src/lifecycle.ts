// The task lifecycle the service runs (src/lifecycle/task-lifecycle.ts, a module without imports that
// the bundle takes as it is): the dashboard's status sets come from it, never from a list of its own.
export * from '../../src/lifecycle/task-lifecycle.js';
