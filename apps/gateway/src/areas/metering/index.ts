import { defineArea } from '../area';
import * as schemas from './metering.schemas';
import routes from './metering.routes';

export default defineArea({ name: 'metering', routes, schemas: [schemas] });
