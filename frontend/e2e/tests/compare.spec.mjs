import { register } from '../register.mjs';
import spec from '../specs/compare.mjs';

register(spec);
