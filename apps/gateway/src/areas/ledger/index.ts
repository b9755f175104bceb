import { defineArea } from '../area';
import * as ledgerSchemas from './ledger.schemas';
import routes from './ledger.routes';

export default defineArea({
  name: 'ledger',
  prefix: '/v1/ledger',
  routes,
  schemas: [ledgerSchemas],
});
