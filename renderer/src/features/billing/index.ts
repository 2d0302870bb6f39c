/** The billing feature's one public entry: what the shell and the other features may use of it. */
export { BillingScreen } from './BillingScreen';
export { paymentStateKey, summaryStateKey } from './labels';
