-- GETSingle as the lab sends it: a random artist 1..275 per request.
request = function()
  return wrk.format("GET", "/artist?select=*&artist_id=eq." .. math.random(1, 275))
end
