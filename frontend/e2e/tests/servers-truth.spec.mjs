import { register } from '../register.mjs';
import spec from '../specs/servers-truth.mjs';

register(spec);
