import { register } from '../register.mjs';
import spec from '../specs/words.mjs';

register(spec);
