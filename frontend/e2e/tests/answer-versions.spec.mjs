import { register } from '../register.mjs';
import spec from '../specs/answer-versions.mjs';

register(spec);
