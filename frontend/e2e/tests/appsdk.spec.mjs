import { register } from '../register.mjs';
import spec from '../specs/appsdk.mjs';

register(spec);
