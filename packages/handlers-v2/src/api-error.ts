// The error type the front door turns into the v2 error body; re-exported so every module imports it from one place.
export { ApiError } from '@tongate/stubs';
