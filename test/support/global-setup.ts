/** Runs once before the suite: nothing to prepare yet beyond making the run's environment explicit. */
export default function setup(): void {
  process.env.SVC_ENV = 'test';
}
