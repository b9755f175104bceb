import { errors } from '@exchange/platform';

/** 503 for any caller whose lookup identity did not answer (the cause is logged where it failed). */
export const identityUnavailable = () => errors.unavailable('identity_unavailable', 'identity service unavailable');
