import { register } from '../register.mjs';
import spec from '../specs/toolsearch.mjs';

register(spec);
