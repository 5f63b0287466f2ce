/** The check-in module's public surface: the only file other code imports from it. */
export { checkinsModule } from './checkins.module.js';
export { cursorKeys as manifestCursorKeys } from './cursor-seal.js';
export {
  Checkin,
  CheckinResult,
  Manifest,
  type CheckinView,
  type ManifestView,
} from './checkins.schemas.js';
