-- `.jasset` files in Neovim: the `jasset` filetype, with `jasset lsp` started for each
-- file (one server per project) through Neovim's built-in LSP client. Works on Neovim
-- 0.7 and later. Copy it into your init.lua, or load it from there:
--
--   vim.g.jasset_command = '/path/to/jasset' -- optional: default `jasset` on the PATH
--   dofile('/path/to/juliet-rs/editors/neovim/jasset.lua')
--
-- The project root is the nearest folder above the file holding `Assets/`.

local clients = {} -- Neovim 0.7: the client of each project root

local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local assets = vim.fn.finddir('Assets', dir .. ';')
  if assets == '' then
    return dir
  end
  return vim.fn.fnamemodify(assets, ':p:h:h')
end

local function start(bufnr)
  local root = root_of(vim.api.nvim_buf_get_name(bufnr))
  local config = {
    name = 'jasset',
    cmd = { vim.g.jasset_command or 'jasset', 'lsp' },
    root_dir = root,
  }
  if vim.lsp.start then -- Neovim 0.8 and later: reuses the client of the root
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
  group = vim.api.nvim_create_augroup('jasset', { clear = true }),
  pattern = '*.jasset',
  callback = function(args)
    vim.bo[args.buf].filetype = 'jasset'
    vim.bo[args.buf].commentstring = '# %s'
    start(args.buf)
  end,
})
