/*
 * The accounts feature: adding, removing and moving forge accounts, their tokens, network settings
 * and sudo. The accounts themselves live in `platform/accounts.ts`, shared by every feature. This
 * file is its only public face.
 */

export { registerAccountCommands, type AddAccountResult } from './commands';
