// CI (CI=true) runs a sample of the suite so it stays within its time budget; `achilles validate`
// without CI runs everything. Each sampled stage says what it leaves out where it decides.

/** Whether this validate run is CI's sample rather than the full suite. */
export const ciSampling = (): boolean => process.env.CI === 'true' || process.env.CI === '1';
