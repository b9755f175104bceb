import { defineArea } from '../area';
import * as marketSchemas from '../../lib/market/market.schemas';
import * as verificationSchemas from './verification.schemas';
import routes from './verification.routes';

export default defineArea({
  name: 'verification',
  prefix: '/v1',
  routes,
  schemas: [marketSchemas, verificationSchemas],
});
