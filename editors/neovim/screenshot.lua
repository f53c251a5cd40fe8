-- The init file of the guide's screenshot (screenshot.sh): the guide's snippet, a
-- rounded hover window, and, once the server has started, an override typed into the
-- buffer (not saved) and a hover on its key.
vim.g.jasset_command = os.getenv('JASSET_COMMAND')
local here = debug.getinfo(1, 'S').source:sub(2)
dofile(vim.fn.fnamemodify(here, ':p:h') .. '/jasset.lua')
vim.o.number = true
vim.cmd('highlight NormalFloat ctermbg=237 ctermfg=252')
vim.cmd('highlight FloatBorder ctermbg=237 ctermfg=244')
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'rounded' })
vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'Health: 150.0' })
    vim.defer_fn(function()
      vim.cmd('normal! G0l')
      vim.lsp.buf.hover()
    end, 2500)
  end,
})
