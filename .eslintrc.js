module.exports = { root: true };
