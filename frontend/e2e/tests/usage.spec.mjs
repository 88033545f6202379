import { register } from '../register.mjs';
import spec from '../specs/usage.mjs';

register(spec);
