import { defineArea } from '../area';
import * as schemas from './billing.schemas';
import routes from './billing.routes';

export default defineArea({ name: 'billing', routes, schemas: [schemas] });
