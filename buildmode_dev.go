//go:build dev

package main

// devBuild: this is the development build (-tags dev), which also serves
// the page to a browser (-devserver).
const devBuild = true
